/**
 * The engine input: one [[ ]] phoneme run per clause, each followed by the
 * punctuation that gives its pause (espeak-ng pauses about 0.23 s at a comma,
 * 0.31 s at a colon or semicolon, 0.38 s at a full stop at speed 1).
 *
 * Mandarin words are written as one phoneme word each, stressed as espeak
 * stresses a pinyin word it reads itself (primary on the last full-tone
 * syllable, secondary on every other one from the first), so that espeak's
 * own third-tone sandhi and neutral-tone pitch work across the word as they
 * do for text. Cantonese syllables are each their own stressed word, exactly
 * as espeak speaks Cantonese characters.
 */

import { ENGLISH_PREFIX, isEnglishSyllable } from "../english.js";
import type { Clause } from "../split.js";
import type { Dialect, PauseKind } from "../types.js";
import { cantonesePhonemes, mandarinPhonemes, type Stress } from "./phonemes.js";

const PAUSE_MARK: Record<PauseKind, string> = {
  comma: ",",
  colon: ":",
  semicolon: ";",
  ellipsis: "...",
  period: ".",
  question: "?",
  exclamation: "!",
};

/**
 * Clauses of engine syllables (after Mandarin 一/不 sandhi) to espeak-ng
 * input text. An English word (`en:iPhone`) closes the phoneme run and is
 * given as plain text: the voice does not know it, so espeak reads it with
 * its English dictionary and phonemes, in the same voice, pitch and speed,
 * and opens the next run without a pause (`[[wo214 j'ong51]] iPhone [[...]]`).
 */
export function engineInput(clauses: ReadonlyArray<{ words: string[][]; pause: PauseKind | undefined }>, dialect: Dialect): string {
  return clauses
    .filter((clause) => clause.words.length > 0)
    .map((clause) => `${clauseInput(clause.words, dialect)}${clause.pause ? PAUSE_MARK[clause.pause] : ""}`)
    .join(" ");
}

function clauseInput(words: readonly string[][], dialect: Dialect): string {
  const parts: string[] = [];
  let run: string[] = [];
  const close = () => {
    if (run.length > 0) parts.push(`[[${run.join(" ")}]]`);
    run = [];
  };
  for (const word of words) {
    const english = word.length === 1 && isEnglishSyllable(word[0] ?? "") ? word[0] : undefined;
    if (english !== undefined) {
      close();
      parts.push(english.slice(ENGLISH_PREFIX.length));
    } else if (dialect === "cmn") run.push(mandarinWord(word));
    else run.push(...word.map((s) => cantonesePhonemes(s, "primary")));
  }
  close();
  return parts.join(" ");
}

function mandarinWord(syllables: string[]): string {
  const n = syllables.length;
  return syllables.map((syllable, i) => mandarinPhonemes(syllable, mandarinStress(i, n, syllable))).join("");
}

/** espeak's stress for a Mandarin word of n syllables, measured from its output for pinyin words. */
export function mandarinStress(i: number, n: number, syllable: string): Stress {
  if (syllable.endsWith("5")) return "none";
  if (i === n - 1) return "primary";
  return n >= 3 && i % 2 === 0 && i <= n - 3 ? "secondary" : "none";
}

export type { Clause };
