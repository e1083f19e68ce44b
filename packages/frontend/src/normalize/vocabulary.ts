/**
 * The words the normaliser writes, with the reading of each in each dialect.
 * The normaliser gives these readings directly instead of leaving them to the
 * romanisation libraries, so that 分 in 百分之 (fan6) and in 三點十分 (fan1)
 * can never be confused.
 */

import type { Dialect } from "../types.js";

/** Text plus one syllable per character (or per letter name). */
export interface Phrase {
  text: string;
  syllables: string[];
}

export function phrase(text: string, reading: string): Phrase {
  return { text, syllables: reading.split(" ") };
}

export interface Vocabulary {
  /** 0-9 as cardinal digits. */
  digits: readonly Phrase[];
  /** The digit 1 inside phone numbers and codes: 幺 yao1 in Mandarin. */
  codeOne: Phrase;
  /** 两/兩, the 2 of quantities. */
  two: Phrase;
  /** 十 百 千 */
  places: readonly [Phrase, Phrase, Phrase];
  /** 万 亿 万亿, the groups of four digits. */
  groups: readonly [Phrase, Phrase, Phrase];
  point: Phrase;
  minus: Phrase;
  /** 零下, for temperatures below zero. */
  belowZero: Phrase;
  percent: Phrase;
  permille: Phrase;
  /** 分之, between the denominator and the numerator of a fraction. */
  fractionOf: Phrase;
  /** between the two ends of a range */
  to: Phrase;
  year: Phrase;
  month: Phrase;
  day: Phrase;
  hour: Phrase;
  minute: Phrase;
  second: Phrase;
  plus: Phrase;
  equals: Phrase;
  times: Phrase;
  dividedBy: Phrase;
}

const MANDARIN: Vocabulary = {
  digits: "零 ling2|一 yi1|二 er4|三 san1|四 si4|五 wu3|六 liu4|七 qi1|八 ba1|九 jiu3".split("|").map(entry),
  codeOne: phrase("幺", "yao1"),
  two: phrase("两", "liang3"),
  places: [phrase("十", "shi2"), phrase("百", "bai3"), phrase("千", "qian1")],
  groups: [phrase("万", "wan4"), phrase("亿", "yi4"), phrase("万亿", "wan4 yi4")],
  point: phrase("点", "dian3"),
  minus: phrase("负", "fu4"),
  belowZero: phrase("零下", "ling2 xia4"),
  percent: phrase("百分之", "bai3 fen1 zhi1"),
  permille: phrase("千分之", "qian1 fen1 zhi1"),
  fractionOf: phrase("分之", "fen1 zhi1"),
  to: phrase("到", "dao4"),
  year: phrase("年", "nian2"),
  month: phrase("月", "yue4"),
  day: phrase("日", "ri4"),
  hour: phrase("点", "dian3"),
  minute: phrase("分", "fen1"),
  second: phrase("秒", "miao3"),
  plus: phrase("加", "jia1"),
  equals: phrase("等于", "deng3 yu2"),
  times: phrase("乘以", "cheng2 yi3"),
  dividedBy: phrase("除以", "chu2 yi3"),
};

const CANTONESE: Vocabulary = {
  digits: "零 ling4|一 jat1|二 ji6|三 saam1|四 sei3|五 ng5|六 luk6|七 cat1|八 baat3|九 gau2".split("|").map(entry),
  codeOne: phrase("一", "jat1"),
  two: phrase("兩", "loeng5"),
  places: [phrase("十", "sap6"), phrase("百", "baak3"), phrase("千", "cin1")],
  groups: [phrase("萬", "maan6"), phrase("億", "jik1"), phrase("萬億", "maan6 jik1")],
  point: phrase("點", "dim2"),
  minus: phrase("負", "fu6"),
  belowZero: phrase("零下", "ling4 haa6"),
  percent: phrase("百分之", "baak3 fan6 zi1"),
  permille: phrase("千分之", "cin1 fan6 zi1"),
  fractionOf: phrase("分之", "fan6 zi1"),
  to: phrase("至", "zi3"),
  year: phrase("年", "nin4"),
  month: phrase("月", "jyut6"),
  day: phrase("日", "jat6"),
  hour: phrase("點", "dim2"),
  minute: phrase("分", "fan1"),
  second: phrase("秒", "miu5"),
  plus: phrase("加", "gaa1"),
  equals: phrase("等於", "dang2 jyu1"),
  times: phrase("乘以", "sing4 ji5"),
  dividedBy: phrase("除以", "ceoi4 ji5"),
};

function entry(pair: string): Phrase {
  const [text = "", reading = ""] = pair.split(" ");
  return phrase(text, reading);
}

export function vocabularyOf(dialect: Dialect): Vocabulary {
  return dialect === "cmn" ? MANDARIN : CANTONESE;
}
