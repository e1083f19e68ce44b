/**
 * Inline pronunciation overrides: a reading in square brackets right after
 * what it is for. `重[chong2]庆`, `行[hang2]`, `重庆[chong2 qing4]` (one
 * syllable per Han character before the bracket), `長[coeng4]` in Cantonese,
 * or `2046[er4 ling2 si4 liu4]` for a run of Latin letters and digits. The
 * brackets are not spoken. Brackets whose content is not a valid reading for
 * the dialect are left as ordinary text.
 */

import { canonicalJyutping } from "./cantonese/jyutping.js";
import { canonicalPinyin } from "./mandarin/pinyin.js";
import { isHan } from "./text/chars.js";
import type { Dialect, Unit } from "./types.js";

export type Piece = { kind: "text"; text: string } | { kind: "units"; units: Unit[] };

export function canonicalSyllable(syllable: string, dialect: Dialect): string | undefined {
  return dialect === "cmn" ? canonicalPinyin(syllable) : canonicalJyutping(syllable);
}

/** The syllables of a written reading ("chong2 qing4"), or undefined if any is not valid. */
export function parseReading(reading: string, dialect: Dialect): string[] | undefined {
  const parts = reading
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  const syllables = parts.map((part) => canonicalSyllable(part, dialect));
  if (parts.length === 0 || syllables.some((s) => s === undefined)) return undefined;
  return syllables as string[];
}

export function parseOverrides(text: string, dialect: Dialect): Piece[] {
  const chars = [...text];
  const pieces: Piece[] = [];
  let done = 0; // chars before this index are already in `pieces`
  for (let at = 0; at < chars.length; at++) {
    if (chars[at] !== "[") continue;
    const close = chars.indexOf("]", at);
    if (close === -1) break;
    const syllables = parseReading(chars.slice(at + 1, close).join(""), dialect);
    const target = syllables && targetOf(chars, done, at, syllables.length);
    if (!syllables || !target) continue;
    if (target.start > done) pieces.push({ kind: "text", text: chars.slice(done, target.start).join("") });
    pieces.push({ kind: "units", units: unitsFor(chars.slice(target.start, at), syllables, target.han) });
    done = close + 1;
    at = close;
  }
  if (done < chars.length) pieces.push({ kind: "text", text: chars.slice(done).join("") });
  return pieces;
}

/** Where the overridden text starts: n Han characters, or a run of letters and digits. */
function targetOf(chars: string[], done: number, bracket: number, count: number): { start: number; han: boolean } | undefined {
  const last = chars[bracket - 1] ?? "";
  if (isHan(last)) {
    const start = bracket - count;
    if (start < done) return undefined;
    return chars.slice(start, bracket).every(isHan) ? { start, han: true } : undefined;
  }
  if (!/^[A-Za-z0-9]$/.test(last)) return undefined;
  let start = bracket - 1;
  while (start - 1 >= done && /^[A-Za-z0-9]$/.test(chars[start - 1] ?? "")) start--;
  return { start, han: false };
}

/** The units of an override: one per Han character, or one for a run of letters and digits. */
export function unitsFor(target: string[], syllables: string[], han: boolean): Unit[] {
  const units: Unit[] = han
    ? target.map((text, i) => ({ text, syllables: [syllables[i] ?? ""], fixed: true }))
    : [{ text: target.join(""), syllables, fixed: true }];
  return units.map((unit, i) => (i === 0 ? { ...unit, wordStart: true, citation: true } : { ...unit, citation: true }));
}
