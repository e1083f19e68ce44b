/**
 * Numbers written out in words, by the rules a careful announcer follows in
 * both dialects: 零 once for each run of zeros inside the number (一千零一,
 * 一万零一十), 十 rather than 一十 at the start (十五, 十万), 两/兩 for a 2
 * in the thousands (两千) and for a lone 2 before 万 or 亿 (两万), 二 elsewhere
 * (二百, 十二); whether a whole 2 before a measure word is 两 is the caller's call.
 */

import type { Unit } from "../types.js";
import { unitsOf } from "./units.js";
import type { Phrase, Vocabulary } from "./vocabulary.js";

/** The longest number read as a quantity (under 10^16, 万亿 groups); longer ones are read digit by digit. */
export const MAX_CARDINAL_DIGITS = 16;

export function cardinal(digits: string, v: Vocabulary, options: { two?: boolean } = {}): Unit[] {
  const n = digits.replace(/^0+(?=\d)/, "");
  if (n.length > MAX_CARDINAL_DIGITS) return digitByDigit(n, v);
  if (n === "0") return unitsOf(digit(v, 0));
  if (options.two && n === "2") return unitsOf(v.two);

  const groups: string[] = [];
  for (let end = n.length; end > 0; end -= 4) groups.unshift(n.slice(Math.max(0, end - 4), end));
  const phrases: Phrase[] = [];
  let zeroPending = false;
  groups.forEach((group, index) => {
    const level = groups.length - 1 - index; // 0 ones, 1 万, 2 亿, 3 万亿
    if (Number(group) === 0) {
      zeroPending = phrases.length > 0;
      return;
    }
    if (phrases.length > 0 && (zeroPending || group.startsWith("0"))) phrases.push(digit(v, 0));
    zeroPending = false;
    phrases.push(...groupWords(group.padStart(4, "0"), v, { top: index === 0, level }));
    const groupName = v.groups[level - 1];
    if (groupName) phrases.push(groupName);
  });

  const units = phrases.flatMap((p) => unitsOf(p));
  // Only a 一 that opens the number (一百, 一万) or is the whole number
  // (一个) takes the 一 tone change; 十一 or 一百一十's inner 一 do not.
  return units.map((unit, i) => (unit.text === digit(v, 1).text && i > 0 ? { ...unit, citation: true } : unit));
}

/** Four digits (padded) of one group: 千 百 十 and the ones. */
function groupWords(group: string, v: Vocabulary, at: { top: boolean; level: number }): Phrase[] {
  const out: Phrase[] = [];
  let started = false;
  let zero = false;
  const lone = Number(group) === 2 && at.level > 0;
  for (let place = 0; place < 4; place++) {
    const d = Number(group[place]);
    if (d === 0) {
      zero = started;
      continue;
    }
    if (zero) out.push(digit(v, 0));
    zero = false;
    const placeName = place < 3 ? v.places[2 - place] : undefined;
    const tensAtStart = place === 2 && d === 1 && at.top && !started;
    if (d === 2 && (place === 0 || lone)) out.push(v.two);
    else if (!tensAtStart) out.push(digit(v, d));
    if (placeName) out.push(placeName);
    started = true;
  }
  return out;
}

/** Digit by digit, as years (一九九八) and, with `code`, phone numbers (Mandarin 幺 for 1). */
export function digitByDigit(digits: string, v: Vocabulary, options: { code?: boolean } = {}): Unit[] {
  return [...digits].flatMap((char) => {
    const d = Number(char);
    return unitsOf(d === 1 && options.code ? v.codeOne : digit(v, d), true);
  });
}

/** 3.14 -> 三点一四: the whole part as a quantity, the fraction digit by digit. */
export function decimal(whole: string, fraction: string, v: Vocabulary): Unit[] {
  const units = cardinal(whole, v).map((unit) => ({ ...unit, citation: true }));
  return [...units, ...unitsOf(v.point), ...digitByDigit(fraction, v)];
}

/** A number as written ("1,234.50", "12"), read as a quantity. */
export function quantity(written: string, v: Vocabulary, options: { two?: boolean; trimZeros?: boolean } = {}): Unit[] {
  const plain = written.replace(/,/g, "");
  const [whole = "0", rawFraction] = plain.split(".");
  const fraction = options.trimZeros ? rawFraction?.replace(/0+$/, "") : rawFraction;
  if (fraction) return decimal(whole, fraction, v);
  return cardinal(whole, v, options.two ? { two: true } : {});
}

function digit(v: Vocabulary, d: number): Phrase {
  const phrase = v.digits[d];
  if (!phrase) throw new Error(`No digit ${d}`);
  return phrase;
}
