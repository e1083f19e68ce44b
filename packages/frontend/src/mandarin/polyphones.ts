/**
 * Context rules for polyphones pinyin-pro reads by its default whenever the
 * word around them is not in its dictionary (or the segmentation hides it).
 * Each rule decides only in the contexts it names; elsewhere the library's
 * reading stands.
 */

import { among, before, isNumeral, type Rule, reading, text, wordAt } from "./context.js";

/** Verbs of naming, becoming and judging, after which 为 is the copula wei2: 选为, 改为, 视为, 约为. */
const WEI2_AFTER = among("成作认以选评称改定视分列化转升降结较更极最尤颇广甚约均即皆乃实则仍亦多设记译誉奉封存变");

/**
 * 为: wei2 "be, as" after those verbs, before a written number (余额为-200元,
 * 时间为11/22) and in 以…为 (以人民为中心); the library's wei4 "for" elsewhere.
 */
const wei: Rule = (c, i) => {
  if (reading(c, i) !== "wei4" || among("了什何")(text(c, i + 1)) || text(c, i - 1) === "因") return undefined;
  // 他的为人, 为人处世: conduct; 为人民, 为人们 are "for".
  if (text(c, i + 1) === "人" && !among("民们类质")(text(c, i + 2))) return "wei2";
  if (WEI2_AFTER(text(c, i - 1)) || isNumeral(c, i + 1) || text(c, i + 1) === "负") return "wei2";
  return before(c, i, "以", 6) && text(c, i - 1) !== "以" ? "wei2" : undefined;
};

const QUANTIFIERS = among("一二三四五六七八九十两几每这那哪半某多百千万");

/** 只: the measure word zhi1 after a numeral or demonstrative (一只猫, 这只), else the adverb zhi3 "only". */
const zhi: Rule = (c, i) => {
  if (QUANTIFIERS(text(c, i - 1)) || isNumeral(c, i - 1)) return "zhi1";
  if (reading(c, i) !== "zhi1" || text(c, i - 1) === "船" || among("身言字影")(text(c, i + 1))) return undefined;
  return "zhi3";
};

const DIAO4_NEXT = among("查研度动任职派运用拨遣令集兵头包虎门换离");
const TIAO2_NEXT = among("高低大小整节好成皮和解剂味料控试配理教休价息色侃戏笑匀亮暗快慢音");

/**
 * 调: tiao2 "adjust" (调高, 调到26度), diao4 "transfer, investigate" (调查,
 * 把他调到上海: moved to a place rather than set to a number).
 */
const tiao: Rule = (c, i) => {
  const next = text(c, i + 1);
  if (text(c, i - 1) === "空") return "tiao2";
  if (DIAO4_NEXT(next)) return "diao4";
  if (TIAO2_NEXT(next)) return "tiao2";
  if (among("到往至回入")(next)) return isNumeral(c, i + 2) ? "tiao2" : "diao4";
  return undefined;
};

const HIT_BEFORE = among("射击打命猜选考押");
const ZHONG1_NEXT = among("国华文心央部学间午层途期秋医药东西南北方");

/** 中: zhong4 "hit, win" (射中, 中了大奖), not the library's zhong1 "middle". */
const zhong: Rule = (c, i) => {
  if (reading(c, i) !== "zhong1") return undefined;
  if (text(c, i + 1) === "了" && among("大头奖彩标计毒枪弹圈")(text(c, i + 2))) return "zhong4";
  if (among("暑毒弹邪计标奖选枪招")(text(c, i + 1))) return "zhong4";
  return HIT_BEFORE(text(c, i - 1)) && !ZHONG1_NEXT(text(c, i + 1)) ? "zhong4" : undefined;
};

/** 看: kan1 "look after" in 看孩子, 看小孩, 看家, 看门 (not 看家人). */
const kan: Rule = (c, i) => {
  const [next, after] = [text(c, i + 1), text(c, i + 2)];
  const child = (next === "孩" && after === "子") || (next === "小" && after === "孩");
  const home = among("家门")(next) && wordAt(c, i + 1).end === i + 2;
  return child || home ? "kan1" : undefined;
};

const CROPS = among("树花草菜地田玉麦稻豆瓜果粮庄植牙痘桑棉麻茶蔬");
/** Words before 种 "plant": where it follows a verb of wanting, starting or a place (适合种, 地里种). */
const PLANT_AFTER = among("合里去来要想会能以始在爱没着过都也还就再又先上");

/** 种: zhong4 "to plant" before a crop or after a verb-like word; the measure zhong3 after a numeral or demonstrative. */
const plant: Rule = (c, i) => {
  const prev = text(c, i - 1);
  if (QUANTIFIERS(prev) || isNumeral(c, i - 1) || among("各该此另")(prev) || among("子类族群姓")(text(c, i + 1))) return undefined;
  return CROPS(text(c, i + 1)) || PLANT_AFTER(prev) ? "zhong4" : undefined;
};

/** 教: a one-character word is the verb jiao1 "teach" (教我们游泳, 在大学里教历史), as in 教书; compounds keep jiao4. */
const jiao: Rule = (c, i) => {
  const word = wordAt(c, i);
  if (reading(c, i) !== "jiao4") return undefined;
  if (among("书课")(text(c, i + 1))) return "jiao1";
  if (word.end - word.start !== 1) return undefined;
  return among("育学室授练师堂徒会条材案")(text(c, i + 1)) || among("宗佛道基天回邪主传请指领求")(text(c, i - 1)) ? undefined : "jiao1";
};

/** 觉: jiao4 "sleep" in 午觉, 好觉, 懒觉, 睡个觉. */
const jue: Rule = (c, i) => (among("午好懒个大")(text(c, i - 1)) && !among("悟得醒察")(text(c, i + 1)) ? "jiao4" : undefined);

/** 数: the verb shu3 "count" before an aspect marker or a result (数了三遍, 数不清, 数一数). */
const shu: Rule = (c, i) => {
  if (reading(c, i) !== "shu4") return undefined;
  const next = text(c, i + 1);
  if (among("了着过不得完清钱到")(next) && wordAt(c, i).end === i + 1) return "shu3";
  return next === "一" && text(c, i + 2) === "数" ? "shu3" : undefined;
};

/** 数 needs to see both sides of 数一数: both are the verb. */
const countRule: Rule = (c, i) => shu(c, i) ?? (among("一了")(text(c, i - 1)) && text(c, i - 2) === "数" ? "shu3" : undefined);

/** 落: la4 "leave behind" in 把…落在 (我把钥匙落在家里). */
const la: Rule = (c, i) => (text(c, i + 1) === "在" && before(c, i, "把") ? "la4" : undefined);

/** 盛: cheng2 "ladle out" before food or a bowl (盛饭, 盛一碗汤). */
const cheng: Rule = (c, i) => {
  // 盛了一碗汤: the aspect marker sits between the verb and what is ladled.
  const next = text(c, i + 1) === "了" ? text(c, i + 2) : text(c, i + 1);
  const after = text(c, i + 1) === "了" ? text(c, i + 3) : text(c, i + 2);
  return among("饭汤水满菜粥")(next) || (next === "一" && among("碗勺盘杯")(after)) ? "cheng2" : undefined;
};

/** 行 in 一行 is xing2 "party of travellers" after a group or before a head count (他们一行五人). */
const xing: Rule = (c, i) => {
  if (text(c, i - 1) !== "一" || reading(c, i) !== "hang2") return undefined;
  return among("们团队组员")(text(c, i - 2)) || isNumeral(c, i + 1) || text(c, i + 1) === "人" ? "xing2" : undefined;
};

/** 参 before 加, 与, 观 is can1, whatever the segmentation made of 人参加. */
const can: Rule = (c, i) => (among("加与观考谋赛展照议选军战保")(text(c, i + 1)) ? "can1" : undefined);

/** 谁: shei2, the reading announcers use, rather than the library's literary shui2. */
const shei: Rule = (c, i) => (reading(c, i) === "shui2" ? "shei2" : undefined);

/** 空: kong4 "free time, blank" in 有空, 没空, 抽空 and before 白, 缺, 隙 (not 有空调, 没空气). */
const kong: Rule = (c, i) => {
  const [prev, next] = [text(c, i - 1), text(c, i + 1)];
  if (among("调气间中虚军姐想洞前")(next)) return undefined;
  return among("有没抽得闲填")(prev) || among("白缺隙闲档格")(next) ? "kong4" : undefined;
};

/** 啦 is the neutral particle except in 啦啦队. */
const la5: Rule = (c, i) => (text(c, i - 1) === "啦" || text(c, i + 1) === "啦" ? undefined : "la5");

const STACKED = among("叠围困障关险阻包山疑");

/** 重重叠叠, 重重困难: chong2 "layer upon layer"; 重重地 "heavily" keeps zhong4. */
const chong: Rule = (c, i) => {
  const [prev, next] = [text(c, i - 1), text(c, i + 1)];
  return (next === "重" && STACKED(text(c, i + 2))) || (prev === "重" && STACKED(next)) ? "chong2" : undefined;
};

/** 都: du1 "capital, city" after 古, 首, 故, 国, 建, 迁 and in 都市. */
const du: Rule = (c, i) => (among("古首故国建定迁京陪旧帝")(text(c, i - 1)) || text(c, i + 1) === "市" ? "du1" : undefined);

const SPREAD = among("相流失言遗宣谣盛误讹据祖家真单亲直广外疯热遍口秘上下嫡师");

/**
 * 传 ending a word of two or more characters, or a clause, is zhuan4
 * "biography, tale" (水浒传, 自传), except after verbs of spreading (流传, 相传).
 */
const zhuan: Rule = (c, i) => {
  const word = wordAt(c, i);
  const ends = text(c, i + 1) === "" || (word.end === i + 1 && word.start < i);
  return ends && i > 0 && !SPREAD(text(c, i - 1)) ? "zhuan4" : undefined;
};

/** 当 is neutral only inside a word (妥当, 勾当); pinyin-pro also reads 银行|当 as 行当. */
const dang: Rule = (c, i) => {
  const word = wordAt(c, i);
  return reading(c, i) === "dang5" && word.start === i && word.end === i + 1 ? "dang1" : undefined;
};

/** 处: chu3 "deal with, punish" before 以, 罚, 决, 死, 刑, 治, 置. */
const chu: Rule = (c, i) => (among("以罚决死刑治置")(text(c, i + 1)) ? "chu3" : undefined);

/** 系: ji4 "tie, fasten" before what is tied or a result (系好安全带, 系鞋带). */
const ji: Rule = (c, i) => (among("好上紧鞋领安扣围")(text(c, i + 1)) ? "ji4" : undefined);

/** 转: zhuan4 "turn round" (围绕太阳转, 转圈), not zhuan3 "transfer". */
const zhuan4: Rule = (c, i) => {
  const [prev, next] = [text(c, i - 1), text(c, i + 1)];
  if (reading(c, i) !== "zhuan3") return undefined;
  const around = among("绕旋打团着在来去")(prev) || before(c, i, "绕", 6);
  return (next === "" && around) || among("圈盘悠")(next) ? "zhuan4" : undefined;
};

/** 着: zhao2 "reach, find" after 找, 猜, 够, 逮 (找着钥匙了), unless the search is going on (正找着呢). */
const zhao: Rule = (c, i) => {
  if (!among("找猜够逮")(text(c, i - 1)) || text(c, i + 1) === text(c, i - 1)) return undefined;
  return before(c, i, "正", 4) || before(c, i, "在", 4) ? undefined : "zhao2";
};

export const POLYPHONE_RULES: Record<string, Rule> = {
  为: wei,
  只: zhi,
  调: tiao,
  中: zhong,
  看: kan,
  种: plant,
  教: jiao,
  觉: jue,
  落: la,
  盛: cheng,
  行: xing,
  参: can,
  谁: shei,
  啦: la5,
  空: kong,
  数: countRule,
  重: chong,
  都: du,
  传: zhuan,
  处: chu,
  系: ji,
  转: zhuan4,
  着: zhao,
  当: dang,
};
