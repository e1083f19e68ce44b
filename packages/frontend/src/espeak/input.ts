/**
 * The engine input: one [[ ]] phoneme run per clause, each followed by the
 * punctuation that gives its pause (espeak-ng pauses about 0.23 s at a comma,
 * 0.31 s at a colon or semicolon, 0.38 s at a full stop at speed 1).
 *
 * Mandarin words are written as one phoneme word each, stressed as espeak
 * stresses a pinyin word it reads itself (primary on the last full-tone
 * syllable, secondary on every other one from the first), so that espeak's
 * own third-tone sandhi and neutral-tone pitch work across the word as they
 * do for text. Cantonese syllables are each stressed, as espeak speaks
 * Cantonese characters, and each starts a phoneme word of its own unless it
 * starts with a voiced consonant (cantoneseWords).
 */

import { ENGLISH_PREFIX, isEnglishSyllable } from "../english.js";
import type { Clause } from "../split.js";
import type { Dialect, PauseKind } from "../types.js";
import { cantonesePhonemes, mandarinPhonemes, type Stress, startsVoiced } from "./phonemes.js";

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

/** One clause: its phoneme runs in [[ ]], with each English word between them as plain text. */
function clauseInput(words: readonly string[][], dialect: Dialect): string {
  const parts: string[] = [];
  let run: string[][] = [];
  const close = () => {
    if (run.length > 0) {
      const phonemeWords = dialect === "cmn" ? run.map(mandarinWord) : cantoneseWords(run.flat());
      parts.push(`[[${phonemeWords.join(" ")}]]`);
    }
    run = [];
  };
  for (const word of words) {
    const english = word.length === 1 && isEnglishSyllable(word[0] ?? "") ? word[0] : undefined;
    if (english !== undefined) {
      close();
      parts.push(english.slice(ENGLISH_PREFIX.length));
    } else run.push(word);
  }
  close();
  return parts.join(" ");
}

/** Most syllables a Cantonese phoneme word holds, well inside espeak-ng's 200 phonemes a word. */
const MAX_CANTONESE_WORD = 8;

/**
 * Cantonese phoneme words. espeak-ng starts a voiced consonant that begins a
 * word (m, n, ng, l, j, w, a syllabic nasal) near the bottom of the voice's
 * range and glides up into the tone, so 日 jat6 after 今 gam1 rose where it is
 * level. Inside a word the consonant carries on from the tone before, as a
 * speaker's voice does: such a syllable joins the word before it.
 */
function cantoneseWords(syllables: string[]): string[] {
  const words: string[][] = [];
  for (const syllable of syllables) {
    const last = words.at(-1);
    if (last && startsVoiced(syllable) && last.length < MAX_CANTONESE_WORD) last.push(syllable);
    else words.push([syllable]);
  }
  return words.map((word) => word.map((syllable) => cantonesePhonemes(syllable, "primary")).join(""));
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
