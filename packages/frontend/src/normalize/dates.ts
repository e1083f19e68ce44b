/** Dates, times, and the slash that is either a date (11/22) or a fraction (3/4). */

import type { Unit } from "../types.js";
import { citation, type Match, negativeAllowed, type Scan, sticky, unitTokens } from "./match.js";
import { cardinal, digitByDigit } from "./numbers.js";
import { unitsOf } from "./units.js";
import type { Phrase, Vocabulary } from "./vocabulary.js";

/** 2026-11-22, 2026/11/22, 2026.11.22 and 2026-11: the year digit by digit, then month and day. */
export function date(scan: Scan): Match | undefined {
  const full = sticky(/(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\d.])/, scan);
  if (full && validMonth(full[3]) && validDay(full[4])) {
    return { end: scan.at + full[0].length, tokens: unitTokens(yearMonthDay(scan.v, full[1], full[3], full[4])) };
  }
  const month = sticky(/(\d{4})-(\d{1,2})(?![\d\-/.:])/, scan);
  if (month && validMonth(month[2])) {
    return { end: scan.at + month[0].length, tokens: unitTokens(yearMonthDay(scan.v, month[1], month[2])) };
  }
  return undefined;
}

function yearMonthDay(v: Vocabulary, year?: string, month?: string, day?: string): Unit[] {
  const out: Unit[] = [];
  if (year) out.push(...digitByDigit(year, v), ...unitsOf(v.year));
  if (month) out.push(...citation(cardinal(month, v)), ...unitsOf(v.month));
  if (day) out.push(...citation(cardinal(day, v)), ...unitsOf(v.day));
  return out;
}

const validMonth = (m?: string) => Number(m) >= 1 && Number(m) <= 12;
const validDay = (d?: string) => Number(d) >= 1 && Number(d) <= 31;

/** 14:30 -> 十四点三十分; 9:05 -> 九点零五分; 2:00 -> 两点; 8:30:15 with seconds. */
export function time(scan: Scan): Match | undefined {
  const m = sticky(/(\d{1,2}):(\d{2})(?::(\d{2}))?(?!\d)/, scan);
  if (!m) return undefined;
  const [hour, minute] = [Number(m[1]), Number(m[2])];
  const second = m[3] === undefined ? undefined : Number(m[3]);
  if (hour > 24 || minute > 59 || (second ?? 0) > 59) return undefined;
  const v = scan.v;
  const out = [...citation(cardinal(String(hour), v, { two: true })), ...unitsOf(v.hour)];
  if (minute > 0 || second !== undefined) out.push(...sixtieths(minute, v.minute, v));
  if (second !== undefined) out.push(...sixtieths(second, v.second, v));
  return { end: scan.at + m[0].length, tokens: unitTokens(out) };
}

/** Minutes and seconds under ten keep their written zero: 零五分. */
function sixtieths(value: number, name: Phrase, v: Vocabulary): Unit[] {
  const zero = v.digits[0];
  return [...(value < 10 && zero ? unitsOf(zero) : []), ...citation(cardinal(String(value), v)), ...unitsOf(name)];
}

/**
 * 11/22 is a date when it can be one and the day is above 12 or a date word
 * follows (日, 号, 星期); otherwise, like 3/4 or 1/20, it is a fraction: 四分之三.
 */
export function slashed(scan: Scan): Match | undefined {
  const m = sticky(/(-)?(\d+)\/(\d+)(?![\d/])/, scan);
  if (!m || (m[1] && !negativeAllowed(scan))) return undefined;
  const [top, bottom] = [m[2] ?? "", m[3] ?? ""];
  const end = scan.at + m[0].length;
  const after = scan.text.slice(end);
  const dateWord = /^\s*([日号號(（]|星期|周|週|礼拜|禮拜)/.test(after);
  // 占总数的1/20, 约1/15: a share of something, whatever the numbers could be.
  const share = /(的|占|约|約|仅|僅|近|超过|超過|不到|不足)\s*$/.test(scan.text.slice(0, scan.at));
  if (!m[1] && validMonth(top) && validDay(bottom) && ((Number(bottom) > 12 && !share) || dateWord)) {
    return { end, tokens: unitTokens(yearMonthDay(scan.v, undefined, top, bottom)) };
  }
  const v = scan.v;
  const sign = m[1] ? unitsOf(v.minus) : [];
  return { end, tokens: unitTokens([...sign, ...cardinal(bottom, v), ...unitsOf(v.fractionOf), ...cardinal(top, v)]) };
}
