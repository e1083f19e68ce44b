/**
 * Numbers with what is written around them: money (¥12.5), percentages,
 * temperatures, unit symbols, ranges (3-5个, 10%-20%), years before 年 and
 * plain numbers, whose reading depends on the word that follows.
 */

import type { Unit } from "../types.js";
import { citation, escapeRegExp, type Match, NUM, negativeAllowed, type Scan, sticky, unitTokens } from "./match.js";
import { digitByDigit, MAX_CARDINAL_DIGITS, quantity } from "./numbers.js";
import { CURRENCIES, type Currency, startsWithMeasureWord, TEMPERATURES, type Temperature, UNIT_SYMBOLS } from "./quantities.js";
import { unitsOf } from "./units.js";
import type { Phrase } from "./vocabulary.js";

const CURRENCY_PREFIX = CURRENCIES.map((c) => escapeRegExp(c.symbol)).join("|");

/** ¥12.5, HK$100, €3.5万: the amount (trailing zeros of the cents dropped), then the currency. */
export function money(scan: Scan): Match | undefined {
  const m = sticky(String.raw`(${CURRENCY_PREFIX})\s?(${NUM})([万亿萬億])?`, scan);
  const currency = m && CURRENCIES.find((c) => c.symbol === m[1]);
  if (!m || !currency) return undefined;
  const group = m[3] ? scan.v.groups[/[亿億]/.test(m[3]) ? 1 : 0] : undefined;
  const amount = quantity(m[2] ?? "", scan.v, { two: true, trimZeros: true });
  const list = [...amount, ...(group ? unitsOf(group) : []), ...unitsOf(currency.name[scan.dialect])];
  return { end: scan.at + m[0].length, tokens: unitTokens(list) };
}

type Suffix =
  | { kind: "percent"; phrase: Phrase }
  | { kind: "temperature"; temperature: Temperature }
  | { kind: "unit"; phrase: Phrase }
  | { kind: "currency"; currency: Currency };

interface Item {
  negative: boolean;
  number: string;
  suffix: Suffix | undefined;
  length: number;
}

const SUFFIX_PATTERN = [
  "%",
  "‰",
  ...TEMPERATURES.map((t) => escapeRegExp(t.symbol)),
  ...UNIT_SYMBOLS.map((u) => `${escapeRegExp(u.symbol)}(?![A-Za-z])`),
  ...CURRENCIES.filter((c) => /^[A-Z]{3}$/.test(c.symbol)).map((c) => `${c.symbol}(?![A-Za-z])`),
].join("|");

function item(scan: Scan, offset: number, signed: boolean): Item | undefined {
  const m = sticky(String.raw`(${signed ? "-" : "(?!)"})?(${NUM})(?:\s?(${SUFFIX_PATTERN}))?`, scan, offset);
  if (!m) return undefined;
  return { negative: Boolean(m[1]), number: m[2] ?? "", suffix: suffixOf(m[3], scan), length: m[0].length };
}

function suffixOf(symbol: string | undefined, scan: Scan): Suffix | undefined {
  if (symbol === undefined) return undefined;
  if (symbol === "%") return { kind: "percent", phrase: scan.v.percent };
  if (symbol === "‰") return { kind: "percent", phrase: scan.v.permille };
  const temperature = TEMPERATURES.find((t) => t.symbol === symbol);
  if (temperature) return { kind: "temperature", temperature };
  const currency = CURRENCIES.find((c) => c.symbol === symbol);
  if (currency) return { kind: "currency", currency };
  const unit = UNIT_SYMBOLS.find((u) => u.symbol === symbol);
  return unit && { kind: "unit", phrase: unit[scan.dialect] };
}

export function expression(scan: Scan): Match | undefined {
  const first = item(scan, 0, negativeAllowed(scan));
  if (!first) return undefined;
  let end = scan.at + first.length;
  let second: Item | undefined;
  const dash = sticky(/\s*[-~～—]\s*/, scan, first.length);
  if (dash && (first.suffix === undefined || first.suffix.kind === "percent")) {
    second = item(scan, first.length + dash[0].length, false);
    // 3-5-2026 or 1-2-3 is not a range of two numbers.
    if (second && /^[-/.]\d/.test(scan.text.slice(end + dash[0].length + second.length))) second = undefined;
    if (second) end += dash[0].length + second.length;
  }
  const rest = scan.text.slice(end);
  const before = scan.text.slice(0, scan.at);
  const suffix = second?.suffix ?? first.suffix;
  const reading = second
    ? range(first, second, suffix, rest, scan)
    : suffix
      ? withSuffix(first, suffix, scan)
      : plain(first, rest, before, scan);
  return { end, tokens: unitTokens(reading) };
}

function range(first: Item, second: Item, suffix: Suffix | undefined, rest: string, scan: Scan): Unit[] {
  const v = scan.v;
  if (suffix?.kind === "temperature") {
    const { before, after } = suffix.temperature;
    const prefix = before[scan.dialect];
    return [
      ...(prefix ? unitsOf(prefix) : []),
      ...signed(first, scan, true),
      ...unitsOf(v.to),
      ...signed(second, scan, true),
      ...unitsOf(after[scan.dialect]),
    ];
  }
  if (suffix?.kind === "percent") {
    const part = (x: Item) => [...(x.negative ? unitsOf(v.minus) : []), ...unitsOf(suffix.phrase), ...quantity(x.number, v)];
    return [...part(first), ...unitsOf(v.to), ...part(second)];
  }
  if (suffix) return [...signed(first, scan), ...unitsOf(v.to), ...withSuffix(second, suffix, scan)];
  // 2020-2025年 reads two years; 2-3个 two quantities of the measure word that follows.
  const years = /^\d{4}$/.test(first.number) && /^\d{4}$/.test(second.number) && rest.startsWith("年");
  const ends = (x: Item) => (years ? digitByDigit(x.number, v) : signed(x, scan, false, startsWithMeasureWord(rest, scan.dialect)));
  return [...ends(first), ...unitsOf(v.to), ...ends(second)];
}

function withSuffix(x: Item, suffix: Suffix, scan: Scan): Unit[] {
  const v = scan.v;
  switch (suffix.kind) {
    case "percent":
      return [...(x.negative ? unitsOf(v.minus) : []), ...unitsOf(suffix.phrase), ...quantity(x.number, v)];
    case "temperature": {
      const prefix = suffix.temperature.before[scan.dialect];
      return [...(prefix ? unitsOf(prefix) : []), ...signed(x, scan, true), ...unitsOf(suffix.temperature.after[scan.dialect])];
    }
    case "currency":
      return [...signed(x, scan, false, true, true), ...unitsOf(suffix.currency.name[scan.dialect])];
    case "unit":
      return [...signed(x, scan, false, true), ...unitsOf(suffix.phrase)];
  }
}

/** A quantity with its sign: 负 before it, or 零下 for a temperature below zero. */
function signed(x: Item, scan: Scan, temperature = false, two = false, money = false): Unit[] {
  const v = scan.v;
  const sign = x.negative ? unitsOf(temperature ? v.belowZero : v.minus) : [];
  return [...sign, ...quantity(x.number, v, { two: two && x.number === "2", trimZeros: money })];
}

const ROUND_YEARS_AS_DURATION = /^年(前|后|後|来|來|间|間|内|內|多|左右|之)/;
const CODE_WORDS = /^(室|房|路|号房|號房|次列车|次列車|次航班)/;
/** Mandarin numbers read out as codes after their name: 房间号是1208, 验证码385912. */
const CODE_NAMES_CMN =
  /(房间号?|房号|门牌号?|编号|工号|学号|尾号|单号|密码|验证码|车牌号?|航班号?|车次|代码|邮编|账号|卡号)\s*(是|为|[:：])?\s*$/;
const MONEY_WORDS = /^(元|块|塊|圆|圓|蚊|港元|港币|港幣|美元|欧元|歐元|日元|人民币|人民幣)/;
const DATE_WORDS = /^(点|點|月|号|號|日)/;

/** 有3000年歷史, 超過1000年: a number of years, not a year, in Cantonese (約1850年 stays a year). */
function cantoneseDuration(before: string, rest: string, scan: Scan): boolean {
  if (scan.dialect !== "yue") return false;
  return /(有|逾|超過|長達|足足)$/.test(before) || /^年(歷史|之久)/.test(rest);
}

/** A bare number: its reading depends on what is written after (and before) it. */
function plain(x: Item, rest: string, before: string, scan: Scan): Unit[] {
  const v = scan.v;
  // Cantonese reads a temperature written with 度 (-10度) as it reads -10℃: 零下十度.
  const belowZero = scan.dialect === "yue" && rest.startsWith("度");
  const sign = x.negative ? unitsOf(belowZero ? v.belowZero : v.minus) : [];
  const digits = x.number;
  const years = !(digits.endsWith("00") && ROUND_YEARS_AS_DURATION.test(rest)) && !cantoneseDuration(before, rest, scan);
  if (/^\d{4}$/.test(digits) && rest.startsWith("年") && years) {
    return [...sign, ...digitByDigit(digits, v)];
  }
  const integer = /^\d+$/.test(digits);
  const code =
    integer &&
    ((digits.length > 1 && digits.startsWith("0")) ||
      digits.length > MAX_CARDINAL_DIGITS ||
      (digits.length >= 3 && (CODE_WORDS.test(rest) || /[A-Za-z]$/.test(before))) ||
      (scan.dialect === "cmn" && digits.length >= 3 && CODE_NAMES_CMN.test(before)));
  if (code) return [...sign, ...digitByDigit(digits, v, { code: true })];
  const ordinal = /(第|星期|礼拜|禮拜|周|週)$/.test(before);
  const sameMonth = scan.dialect === "yue" && before.endsWith("月") && rest.startsWith("日");
  const two = digits === "2" && !ordinal && !sameMonth && startsWithMeasureWord(rest, scan.dialect);
  const units = quantity(digits, v, { two, trimZeros: MONEY_WORDS.test(rest) });
  // 一月, 一号, 一点 (one o'clock), 第一 keep 一's own tone.
  return [...sign, ...(ordinal || DATE_WORDS.test(rest) ? citation(units) : units)];
}
