/**
 * English words inside Chinese text. A Latin word that is not an acronym is
 * spoken as an English word by the engine's own English dictionary, in the
 * same voice; in the reading it is one syllable-like entry `en:<word>`, so
 * that `fangyan read` and the evaluation show it as one word.
 *
 * All-capital words (GDP, HK, AI) and single letters are spelt letter by
 * letter, as Chinese speakers say them: an acronym is read as its letters.
 */

import type { Unit } from "./types.js";

export const ENGLISH_PREFIX = "en:";

/** A Latin word as the normaliser cuts it: letters, with inner apostrophes and hyphens (McDonald’s, check-in). */
export const LATIN_WORD = /^[A-Za-z]+(?:['’-][A-Za-z]+)*/;

/** Whether a Latin word is said as a word (iPhone, busy, Google) rather than spelt (GDP, A). */
export function isSpokenWord(word: string): boolean {
  const letters = word.replace(/['’-]/g, "");
  return letters.length >= 2 && letters !== letters.toUpperCase();
}

/** The unit of an English word: fixed, its own word, read by the engine's English dictionary. */
export function englishUnit(word: string): Unit {
  // The engine input is ASCII: a typographic apostrophe becomes the plain one.
  const plain = word.replace(/’/g, "'");
  return { text: plain, syllables: [`${ENGLISH_PREFIX}${plain.toLowerCase()}`], fixed: true, wordStart: true };
}

export function isEnglishSyllable(syllable: string): boolean {
  return syllable.startsWith(ENGLISH_PREFIX);
}

export function isEnglishUnit(unit: Unit): boolean {
  return unit.syllables.length === 1 && isEnglishSyllable(unit.syllables[0] ?? "");
}
