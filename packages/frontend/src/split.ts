/**
 * Clauses: the stretches between pauses, each spoken as one breath group.
 * espeak-ng silently drops the end of a clause that is too long (measured:
 * after about 120 one-syllable words in phoneme input, and after 199 Han
 * characters of plain text), so a clause longer than MAX_CLAUSE_SYLLABLES is
 * split, at word boundaries, into nearly equal parts with a short pause.
 */

import { wordsOf } from "./segment.js";
import type { PauseKind, Token, Unit } from "./types.js";

export const MAX_CLAUSE_SYLLABLES = 40;

export interface Clause {
  units: Unit[];
  /** Word bounds, [start, end) indexes into units. */
  words: Array<[number, number]>;
  /** The pause after the clause; none at the end of the text. */
  pause: PauseKind | undefined;
}

export function clausesOf(tokens: readonly Token[]): Clause[] {
  const clauses: Clause[] = [];
  let units: Unit[] = [];
  const close = (pause: PauseKind | undefined) => {
    if (units.length > 0) clauses.push(...splitLong(units, pause));
    else if (pause && clauses.length > 0) {
      const last = clauses.at(-1);
      if (last) last.pause = pause;
    }
    units = [];
  };
  for (const token of tokens) {
    if (token.kind === "unit") units.push(token.unit);
    else close(token.pause);
  }
  close(undefined);
  return clauses;
}

const syllableCount = (units: readonly Unit[], [start, end]: readonly [number, number]) =>
  units.slice(start, end).reduce((n, unit) => n + unit.syllables.length, 0);

function splitLong(units: Unit[], pause: PauseKind | undefined): Clause[] {
  const words = wordsOf(units);
  const total = syllableCount(units, [0, units.length]);
  if (total <= MAX_CLAUSE_SYLLABLES) return [{ units, words, pause }];
  const parts = Math.ceil(total / MAX_CLAUSE_SYLLABLES);
  const target = total / parts;
  const clauses: Clause[] = [];
  let start = 0;
  let count = 0;
  words.forEach(([from, to], w) => {
    const size = syllableCount(units, [from, to]);
    // Close before a word that would overshoot the target size (never leaving a part empty).
    if (count > 0 && (count + size > MAX_CLAUSE_SYLLABLES || count + size / 2 > target)) {
      clauses.push(part(units, words, start, w, "comma"));
      start = w;
      count = 0;
    }
    count += size;
  });
  clauses.push(part(units, words, start, words.length, pause));
  return clauses;
}

function part(units: Unit[], words: Array<[number, number]>, fromWord: number, toWord: number, pause: PauseKind | undefined): Clause {
  const first = words[fromWord]?.[0] ?? 0;
  const last = words[toWord - 1]?.[1] ?? first;
  return {
    units: units.slice(first, last),
    words: words.slice(fromWord, toWord).map(([a, b]) => [a - first, b - first]),
    pause,
  };
}
