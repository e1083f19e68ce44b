/**
 * Where pinyin-pro is wrong, by context rules on the characters around a
 * polyphone (and the segmenter's words). Each rule returns the reading it is
 * sure of, or undefined to keep the library's.
 */

import { isEnglishUnit } from "../english.js";
import { surnameReading } from "../names.js";
import { wordsOf } from "../segment.js";
import type { Unit } from "../types.js";
import { among, type Context, type Rule, reading, text, wordAt } from "./context.js";
import { POLYPHONE_RULES } from "./polyphones.js";
import { applyNeutralWords } from "./words.js";

const SUBJECTS = among("我你他她它您咱谁们人家");
const MODAL_ADVERBS = among("还就也都总又可必须才只却真倒非");
/** After these, 得到/得出/得了 is the verb "obtain": 他得到, 没有得到, 已经得出. */
const BEFORE_VERB = among("能会没未有经以要将曾所应该可的地而并从就才都也");
const OBTAIN_NEXT = among("到出了知");
const LEXICAL_NEXT = among("以意分罪失奖益体手逞病力当宠救胜票主势志");
const DE2_BEFORE = among("获取赢难心所求应博习");
/**
 * Verbs that take the potential complements 得到, 得出, 得了 (办得到, 看得出,
 * 走得了); after anything else 得到 is the verb "obtain" (他在考试中得到了满分).
 */
const POTENTIAL_VERBS = among(
  "办做买看听找吃喝拿接见想猜说写读学用穿睡住停站坐等赶追抓受忍搬抬提放走跑来去飞爬跳游开关画唱认分算感闻摸碰顾管忘比舍活救逃躲藏装承担养熬撑挺扛背打洗修记懂数查算",
);

/**
 * 得: the verb de2 "obtain" (得到, 获得), dei3 "must" after a subject or an
 * adverb (我得走了), else the complement marker de5 (跑得快, 办得到).
 */
const de: Rule = (c, i) => {
  const [prev, next, before] = [text(c, i - 1), text(c, i + 1), text(c, i - 2)];
  if (reading(c, i) !== "de2") return undefined;
  if (LEXICAL_NEXT(next) || DE2_BEFORE(prev)) return "de2";
  const clauseStart = prev === "" || SUBJECTS(prev) || MODAL_ADVERBS(prev) || BEFORE_VERB(prev);
  if (OBTAIN_NEXT(next)) return clauseStart || !POTENTIAL_VERBS(prev) ? "de2" : "de5";
  if (prev === "不") return before === "" || among("不了已而入进擅随超少有在使将向对用")(next) ? "de2" : "de5";
  if (clauseStart) return next === "" ? "de2" : "dei3";
  return "de5";
};

const DI_NOUN_PREFIXES = ["目的", "根据", "殖民", "所在", "出生", "发源", "居住", "栖息", "集散", "原产", "立足", "用武之"];
const DI_AFTER_MEASURE = among("块片亩些处种这那的满遍整落倒着在到上下扫耕买卖租有平大");

/** 地: the adverbial particle de5 after an adverbial word (高兴|地|说, 慢慢地), the noun di4 elsewhere. */
const di: Rule = (c, i) => {
  const word = wordAt(c, i);
  const next = text(c, i + 1);
  if (word.start < i && word.end - word.start === 2) return undefined; // 草地, 各地, 特地
  if (word.start === i && word.end > i + 1) return undefined; // 地方, 地上
  if (next === "" || !c.units[i + 1]?.syllables.length) return undefined;
  if (word.start < i) {
    const before = word.text.slice(0, -1);
    return DI_NOUN_PREFIXES.some((p) => before.endsWith(p)) ? undefined : "de5";
  }
  const prevWord = wordAt(c, i - 1);
  if (i === 0 || prevWord.end - prevWord.start < 2 || DI_AFTER_MEASURE(text(c, i - 1))) return undefined;
  return "de5";
};

const HUAN_NEXT = among("给钱书款债清原击手嘴价乡俗贷本礼回账帐");
const HUAN_AFTER = among("归偿交送退奉返拖欠借");
const DEBTS = among("贷款钱债账帐");

/** 还: huan2 "give back" before what is given back or at the end of a clause, else the adverb hai2. */
const hai: Rule = (c, i) => {
  const [prev, next] = [text(c, i - 1), text(c, i + 1)];
  if (HUAN_NEXT(next) || HUAN_AFTER(prev) || next === "") return "huan2";
  if (next === "了" && !among("得解")(text(c, i + 2))) return "huan2";
  // 还上了房贷, 还完贷款: a debt within the next few words.
  if (among("上完")(next) && [2, 3, 4].some((k) => DEBTS(text(c, i + k)))) return "huan2";
  // 还你, 还我钱, 还他一个公道: a person, then nothing or what is given back.
  if (among("我你他她")(next) && (text(c, i + 2) === "" || among("钱书东一")(text(c, i + 2)))) return "huan2";
  return undefined;
};

const GROW_NEXT = among("大高胖出成满得肉膘个牙草芽势相辈进");
const TITLE_BEFORE = among("校部市行院队班家省县组科局处厂社首师兄学会署州镇村船机团营连排站所区乡馆司议庭警舰军酋");

/** Characters after 长 that make a word of "long": 长期, 长江, 长时间. */
const CHANG_WORD = among("期远久度江城途时假篇短方寿沙安春达跑廊河椅裙衫袖条号年项效足征线空");
const DEGREE = among("太很更最真好多挺特非够么样间较越变拉延");

/** 长: zhang3 "grow" and "head of" (局长, 长出), chang2 "long" otherwise. */
const chang: Rule = (c, i) => {
  const [prev, next] = [text(c, i - 1), text(c, i + 1)];
  if (GROW_NEXT(next) && !(next === "得" && text(c, i + 2) === "多")) return "zhang3";
  // 处长, 校长说: a title wherever the segmenter puts it, unless 长 starts a word of its own
  // (国家|长期, 会|长时间); 家长期望 is 家长 then 期望.
  const longWord = CHANG_WORD(next) && !(next === "期" && among("望待盼许")(text(c, i + 2)));
  if (TITLE_BEFORE(prev)) return longWord ? "chang2" : "zhang3";
  // 脸上长了皱纹 grew; 太长了, 时间长了 are long.
  if (next === "了" && text(c, i + 2) !== "" && !DEGREE(prev)) return "zhang3";
  return undefined;
};

/** 背着 someone who is not told is bei4 "behind the back of" (背着妈妈); pronouns stay ambiguous. */
const BEHIND_BACK_OF = among("妈爸父母家老别领同朋爷奶丈妻众");

/** 背: bei1 "carry on the back" before what is carried or how. */
const bei: Rule = (c, i) => {
  const next = text(c, i + 1);
  if (next === "着" && BEHIND_BACK_OF(text(c, i + 2))) return "bei4";
  return among("着起负孩娃黑走回篓筐")(next) ? "bei1" : undefined;
};

/** 倒: dao4 "pour, reverse" before what is poured or the direction. */
const dao: Rule = (c, i) => (among("水茶酒车退立影数是挂过掉垃映贴序计置转流装叙吊扣进入出回")(text(c, i + 1)) ? "dao4" : undefined);

/** 和: huo2 "knead" in 和面, 和泥. */
const he: Rule = (c, i) => (among("面泥馅")(text(c, i + 1)) && reading(c, i) === "he2" ? "huo2" : undefined);

/** 好好学习: a reduplicated 好 keeps its third tone, and so does 好 "good" in 好学生 (not 好学 "studious"). */
const hao: Rule = (c, i) => {
  if (reading(c, i) !== "hao4") return undefined;
  return text(c, i - 1) === "好" || (text(c, i + 1) === "学" && text(c, i + 2) === "生") ? "hao3" : undefined;
};

const ERHUA_HOSTS = among("这那哪点会块玩边些事空片头味劲样个活画今明昨盖眼天孩花鸟猫狗歌");

/** 儿 as the r-suffix (哪儿, 一会儿) is neutral; 女儿, 儿子 keep er2. */
const er: Rule = (c, i) => (ERHUA_HOSTS(text(c, i - 1)) && !among("子童女科歌时孙")(text(c, i + 1)) ? "er5" : undefined);

/** 了: liao3 in the potential complements V得了 and V不了 (走得了, 来不了). */
const le: Rule = (c, i) => {
  const [prev, before] = [text(c, i - 1), text(c, i - 2)];
  // After an English word (改成online了) the library saw only a pause, and read a clause-initial liao3.
  const after = c.units[i - 1];
  if (after && isEnglishUnit(after)) return "le5";
  // 得到了解决: 了 then 解决, never 了解 then 决.
  if (text(c, i + 1) === "解" && among("决放答除散释冻")(text(c, i + 2))) return "le5";
  if (!among("得不")(prev) || before === "" || SUBJECTS(before)) return undefined;
  if (prev === "得" && reading(c, i - 1) === "de2") return undefined;
  return text(c, i + 1) === "了" || reading(c, i) === "le5" ? "liao3" : undefined;
};

/** 看一看: the 一 between a repeated verb is neutral (一天一天 repeats a measure word). */
const yi: Rule = (c, i) => {
  const prev = text(c, i - 1);
  // 一闪一闪 repeats 一X, which is not a verb reduplicated around 一.
  if (prev === "" || prev !== text(c, i + 1) || c.units[i - 1]?.fixed || text(c, i - 2) === "一") return undefined;
  return among("天年月日步个次点片层遍代批排")(prev) ? undefined : "yi5";
};

/** 舍不得: she3 "give up", not the noun she4 "house". */
const she: Rule = (c, i) => (text(c, i + 1) === "不" && text(c, i + 2) === "得" ? "she3" : undefined);

/** Words in which 子 keeps its full tone: people, particles, seeds and the sages. */
const FULL_ZI = new Set(
  "男子 女子 孔子 孟子 庄子 老子 荀子 墨子 君子 天子 太子 王子 公子 才子 学子 游子 赤子 孝子 浪子 弟子 臣子 原子 电子 分子 离子 质子 中子 粒子 光子 量子 因子 核子 瓜子 莲子 松子 棋子 鱼子 精子 卵子 甲子 独子 长子 次子 幼子 嫡子 庶子 养子 犬子 仙子 夫子 父子 母子 诸子 内子 士子 舟子".split(
    " ",
  ),
);

/** 子 ending a word is the neutral noun suffix (箱子, 橘子) unless the word is one of those. */
const zi: Rule = (c, i) => {
  const word = wordAt(c, i);
  if (reading(c, i) !== "zi3" || word.end !== i + 1 || word.start === i) return undefined;
  return FULL_ZI.has(text(c, i - 1) + text(c, i)) ? undefined : "zi5";
};

const RULES: Record<string, Rule> = {
  ...POLYPHONE_RULES,
  得: de,
  地: di,
  还: hai,
  长: chang,
  背: bei,
  倒: dao,
  和: he,
  好: hao,
  儿: er,
  了: le,
  一: yi,
  舍: she,
  子: zi,
};

export function applyMandarinRules(units: readonly Unit[]): Unit[] {
  const words = wordsOf(units);
  const wordOf: number[] = [];
  words.forEach(([start, end], w) => {
    for (let i = start; i < end; i++) wordOf[i] = w;
  });
  const out = applyNeutralWords(units, words);
  const context: Context = { units: out, wordOf, words };
  units.forEach((unit, i) => {
    if (unit.fixed || unit.syllables.length === 0) return;
    const corrected = surnameReading(out, words, i, "cmn") ?? RULES[unit.text]?.(context, i);
    if (corrected) out[i] = { ...unit, syllables: [corrected] };
  });
  return out;
}
