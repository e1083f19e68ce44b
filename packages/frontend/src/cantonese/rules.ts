/**
 * Context rules for Cantonese polyphones that a word list cannot cover: the
 * reading depends on a neighbour that varies (呢 before any measure word, 量
 * after any noun, 下 after any verb). Each rule returns the reading it is
 * sure of, or undefined to keep the library's. Units the normaliser, an
 * override or the lexicon decided (fixed) are never changed.
 */

import { isEnglishUnit } from "../english.js";
import { surnameReading } from "../names.js";
import { wordsOf } from "../segment.js";
import { isHan, isLatin } from "../text/chars.js";
import type { Unit } from "../types.js";

interface Context {
  /** One clause, corrected left to right: the rules see no further than the pauses around it. */
  units: readonly Unit[];
}

type Rule = (c: Context, i: number) => string | undefined;

const text = (c: Context, i: number): string => c.units[i]?.text ?? "";
const reading = (c: Context, i: number): string => c.units[i]?.syllables[0] ?? "";
const among = (chars: string) => (char: string) => char !== "" && [...chars].includes(char);
/** A number, letter or override the normaliser or the reader already wrote out. */
const isFixed = (c: Context, i: number): boolean => c.units[i]?.fixed === true;
const isLatinUnit = (c: Context, i: number): boolean => isFixed(c, i) && isLatin(text(c, i).at(-1));
/** An English word said as a word (check, post): a verb or a noun of the clause. */
const isEnglish = (c: Context, i: number): boolean => {
  const unit = c.units[i];
  return unit !== undefined && isEnglishUnit(unit);
};
/** Nothing follows in the clause, or only a sentence particle. */
const clauseEnd = (c: Context, i: number): boolean => i + 1 >= c.units.length || PARTICLES(text(c, i + 1));

const PARTICLES = among("啦喇吖呀啊啩囉嘞喎咋噃嘛㗎咩呢");
const NUMERALS = among("一二兩三四五六七八九十百千萬幾半");

/** 請 cing2 "please" (請問, 請坐) is the announcer's; ceng2 is "to treat, to hire" (請客, 請假, 請你食飯). */
const qing: Rule = (c, i) => {
  const [next, after] = [text(c, i + 1), text(c, i + 2)];
  if (among("客假飲食")(next) || (among("我你佢")(next) && among("食飲哋")(after))) return "ceng2";
  return "cing2";
};

/** 呢: ne1 the question particle at the end of a clause, else ni1 "this" (the library's nei1 is a variant). */
const ni: Rule = (c, i) => (i + 1 >= c.units.length ? "ne1" : "ni1");

/** 坐 co5 "to sit, to ride" in speech and news alike; zo6 survives in written words (坐落, 坐標). */
const zo: Rule = (c, i) => (among("落標")(text(c, i + 1)) ? undefined : "co5");

/** 返 faan1 "to go back" (返工, 返咗); faan2 only in 往返. */
const faan: Rule = (c, i) => (text(c, i - 1) === "往" ? "faan2" : "faan1");

/**
 * 為 wai4 "to be" between a noun and a figure (濃度為5‰, 日期為10/15); not
 * the wai6 "for" of 因為 or of 為2個人 after a person or at the start.
 */
const wai: Rule = (c, i) => {
  const prev = text(c, i - 1);
  return isFixed(c, i + 1) && isHan(prev) && !among("因我你佢們哋人")(prev) ? "wai4" : undefined;
};

/** 分 of 分之 (三分之二) is fan6. */
const fan: Rule = (c, i) => (text(c, i + 1) === "之" ? "fan6" : undefined);

/** 份 after a numeral is the measure word fan6 (兩份); 身份 and 股份 keep the library's fan2. */
const fenMeasure: Rule = (c, i) => (NUMERALS(text(c, i - 1)) || isFixed(c, i - 1) ? "fan6" : undefined);

const MEASURING = among("體血度身吓下高重尺");
const NOUNS_OF_AMOUNT = among("電雨水流數重質能熱力容產銷音份盡用存含劑雪工交運儲食飲排增減總大少車人客貨");
/** 量: loeng4 "to measure" (量體溫, 商量), loeng6 "amount" after a noun (電量, 雨量, 存水量). */
const liang: Rule = (c, i) => {
  if (MEASURING(text(c, i + 1)) || among("商思考衡打測丈")(text(c, i - 1))) return "loeng4";
  return NOUNS_OF_AMOUNT(text(c, i - 1)) ? "loeng6" : undefined;
};

/** 近 kan5 "near" as a predicate (好近, 唔近, 近啲); gan6 in words (附近, 最近, 接近). */
const jin: Rule = (c, i) => (among("好咁太唔夠")(text(c, i - 1)) || among("啲咗過")(text(c, i + 1)) ? "kan5" : undefined);

/** 房 fong2 "a room" as a word of its own (呢間房, 入房, VIP房); fong4 in compounds (房屋, 房間, 藥房). */
const fang: Rule = (c, i) => {
  const prev = text(c, i - 1) === "咗" ? text(c, i - 2) : text(c, i - 1);
  const before = among("間個套開入出返嗰呢執")(prev) || isLatinUnit(c, i - 1);
  return before && !among("屋間地東租產價委署貸契車門")(text(c, i + 1)) ? "fong2" : undefined;
};

/** 卡 kaat1 "a card" after letters (ID卡, VIP卡). */
const ka: Rule = (c, i) => (isLatinUnit(c, i - 1) ? "kaat1" : undefined);

/** 相 soeng2 "a photo" after its measure words and 影 (幅相, 啲相, 影相), or 好多相 at the end; not 相片 soeng3. */
const xiang: Rule = (c, i) => {
  const prev = text(c, i - 1);
  if ((among("張幅啲影")(prev) || isEnglish(c, i - 1)) && text(c, i + 1) !== "片") return "soeng2";
  return prev === "多" && clauseEnd(c, i) ? "soeng2" : undefined;
};

const BRIEF_VERBS = among("睇試等諗傾行坐食問聽玩郁數飲休抖唞洗讀寫學搵望執揀量講論究慮息查練");
/** 下 haa5 "a little, for a while" after a verb at the end of a clause (行下, 商量下, 睇下先); 吓 is its usual spelling. */
const xia: Rule = (c, i) => (BRIEF_VERBS(text(c, i - 1)) && (clauseEnd(c, i) || text(c, i + 1) === "先") ? "haa5" : undefined);
/** 吓 after a verb is haa5 (睇吓, 試吓); haak3 "to frighten" only before 親, 到, 死, 倒. */
const xiaColloquial: Rule = (c, i) =>
  (isHan(text(c, i - 1)) || isEnglish(c, i - 1)) && !among("親到死倒")(text(c, i + 1)) ? "haa5" : undefined;
/** Simplified 吓 comes back as 嚇: after a verb of a brief action it is still haa5 (睇吓 -> 睇嚇). */
const xiaConverted: Rule = (c, i) => (BRIEF_VERBS(text(c, i - 1)) && !among("親到死倒")(text(c, i + 1)) ? "haa5" : undefined);

/** 數 sou2 "to count" before an aspect marker or an object (數緊錢, 數吓); sou3 "number" elsewhere. */
const shu: Rule = (c, i) => (among("緊咗吓下過埋清錢唔")(text(c, i + 1)) ? "sou2" : undefined);

/** 倒 dou3 "to pour" before a drink (倒杯水, 倒茶); dou2 "to fall" elsewhere (倒閉). */
const dao: Rule = (c, i) => (among("水茶酒杯啲汁咖")(text(c, i + 1)) ? "dou3" : undefined);

/** 袋 doi2 "a bag" after 個 (呢個袋, 一個袋); doi6 as a measure word (一袋米). */
const dai: Rule = (c, i) => (text(c, i - 1) === "個" ? "doi2" : undefined);

/** 邊 bin1 "which" before a measure word or 度 (邊度, 邊隻, 邊個), whatever word the library saw around it (用開|邊). */
const bian: Rule = (c, i) => (among("度個隻間位條次啲件部架種處便")(text(c, i + 1)) ? "bin1" : undefined);

/**
 * 重 zung6 "still" (colloquial for 仲) before a verb, a negation or an
 * adjective (重未到, 重有, 重係, 重想, 重唔瞓, 重濕); cung5 "heavy" after a
 * degree word or at the end (好重), cung4 "again" in words (重新), zung6 in 重要.
 */
const zhong: Rule = (c, i) => {
  const [prev, next] = [text(c, i - 1), text(c, i + 1)];
  if (among("好太咁幾唔夠最更有幾咪")(prev) || next === "" || among("新複複覆建開申量點")(next)) return undefined;
  return among("未有係想唔要喺會可能得濕記做食去嚟返同多")(next) ? "zung6" : undefined;
};

/** 行 haang4 "walk" when reduplicated with another verb (行行企企) or after 慢慢; the trade hong4 of 行行出狀元 stays. */
const xing: Rule = (c, i) => {
  const [prev, next] = [text(c, i - 1), text(c, i + 1)];
  const pair = next === "行" ? i : prev === "行" ? i - 1 : -1;
  if (pair >= 0 && text(c, pair + 2) !== "" && text(c, pair + 2) === text(c, pair + 3) && isHan(text(c, pair + 2))) return "haang4";
  return prev === "慢" && text(c, i - 2) === "慢" ? "haang4" : undefined;
};

/** 彈 taan4 "to play" an instrument, before or after it (彈鋼琴, 鋼琴彈得好); daan6 "a bullet, to spring" elsewhere. */
const tan: Rule = (c, i) => (among("琴鋼結吉箏琵")(text(c, i + 1)) || among("琴他箏琶")(text(c, i - 1)) ? "taan4" : undefined);

/** 着/著 zoek6 "to fall into (sleep), to catch (light)" after 瞓, 睡, 點, 燒 (瞓着咗, 點着咗). */
const zoek: Rule = (c, i) => (among("瞓睡點燒")(text(c, i - 1)) ? "zoek6" : undefined);

/** 隊 deoi2 "a queue" ending a clause after 排 (排咗好長嘅隊). */
const dui: Rule = (c, i) => {
  if (!clauseEnd(c, i)) return undefined;
  for (let j = i - 1; j >= Math.max(0, i - 6); j--) if (text(c, j) === "排") return "deoi2";
  return undefined;
};

/** Surnames of Hong Kong before which 太 is "Mrs" taai2 (陳太, 曾太), unless 太 is "too" before an adjective. */
const SURNAMES_BEFORE_TAI = among("陳李張黃何林王吳劉蔡楊鄭梁謝郭曾羅周葉馮鄧許蘇朱麥盧彭胡譚廖區單冼莫潘袁江余杜范鍾方石姚");
const tai: Rule = (c, i) =>
  SURNAMES_BEFORE_TAI(text(c, i - 1)) && !among("多少大小快慢早遲高低好差貴平重輕長短熱冷忙累")(text(c, i + 1)) ? "taai2" : undefined;

/** 嗎 maa3, the question particle, at the end of a clause (你好嗎？); maa1 in 嗎啡. */
const ma: Rule = (c, i) => (i + 1 >= c.units.length ? "maa3" : undefined);

/** Characters whose one standard reading the library gives in a variant spelling. */
const only =
  (syllable: string): Rule =>
  () =>
    syllable;

const RULES: Record<string, Rule> = {
  請: qing,
  呢: ni,
  坐: zo,
  返: faan,
  為: wai,
  分: fan,
  份: fenMeasure,
  量: liang,
  近: jin,
  房: fang,
  卡: ka,
  相: xiang,
  下: xia,
  吓: xiaColloquial,
  嚇: xiaConverted,
  袋: dai,
  嗎: ma,
  邊: bian,
  重: zhong,
  彈: tan,
  着: zoek,
  著: zoek,
  隊: dui,
  太: tai,
  行: xing,
  嚟: only("lei4"),
  數: shu,
  倒: dao,
  這: only("ze5"),
  剩: only("zing6"),
  唉: only("aai1"),
  競: only("ging6"),
  郁: only("juk1"),
};

export function applyCantoneseRules(units: readonly Unit[]): Unit[] {
  const out = [...units];
  const context: Context = { units: out };
  const words = wordsOf(units);
  out.forEach((unit, i) => {
    const rule = RULES[unit.text];
    if (unit.fixed || unit.syllables.length !== 1) return;
    const syllable = surnameReading(out, words, i, "yue") ?? rule?.(context, i);
    if (syllable && syllable !== reading(context, i)) out[i] = { ...unit, syllables: [syllable] };
  });
  return out;
}
