/** What a Mandarin context rule sees of its clause, and the helpers rules share. */

import type { Unit } from "../types.js";

export interface Context {
  /** Rules run left to right and see the readings already corrected. */
  units: Unit[];
  /** index of the word each unit is in, and the words as [start, end) */
  wordOf: readonly number[];
  words: ReadonlyArray<readonly [number, number]>;
}

/** The reading a rule is sure of for the unit at i, or undefined to keep the library's. */
export type Rule = (c: Context, i: number) => string | undefined;

export const text = (c: Context, i: number): string => c.units[i]?.text ?? "";
export const reading = (c: Context, i: number): string => c.units[i]?.syllables[0] ?? "";
export const among = (chars: string) => (char: string) => char !== "" && chars.includes(char);

/** The word a unit is in, as text, and its bounds. */
export function wordAt(c: Context, i: number): { text: string; start: number; end: number } {
  const [start, end] = c.words[c.wordOf[i] ?? 0] ?? [i, i + 1];
  return {
    text: c.units
      .slice(start, end)
      .map((u) => u.text)
      .join(""),
    start,
    end,
  };
}

const HAN_NUMERALS = among("零〇一二三四五六七八九十百千万亿两几");

/** A number the normaliser wrote (二十六 from 26) or a Han numeral in the text. */
export function isNumeral(c: Context, i: number): boolean {
  const unit = c.units[i];
  if (!unit) return false;
  return HAN_NUMERALS(unit.text) || (unit.fixed && /^[0-9]/.test(unit.text));
}

/** Whether `char` occurs in the clause before i, at most `within` units back. */
export function before(c: Context, i: number, char: string, within = 8): boolean {
  for (let j = i - 1; j >= Math.max(0, i - within); j--) if (text(c, j) === char) return true;
  return false;
}
