/** Building the units that the normaliser's readings are made of. */

import type { Unit } from "../types.js";
import type { Phrase } from "./vocabulary.js";

/**
 * One unit per character when the phrase has a syllable per character (数字,
 * 百分之), so the segmenter and the reader see them like any Han text; else
 * one unit for the whole phrase (a letter name of several syllables).
 */
export function unitsOf(phrase: Phrase, citation = false): Unit[] {
  const chars = [...phrase.text];
  const extra = citation ? { citation: true } : {};
  if (chars.length === phrase.syllables.length) {
    return chars.map((text, i) => ({ text, syllables: [phrase.syllables[i] ?? ""], fixed: true, ...extra }));
  }
  return [{ text: phrase.text, syllables: [...phrase.syllables], fixed: true, ...extra }];
}

export function unitsOfAll(phrases: readonly Phrase[], citation = false): Unit[] {
  return phrases.flatMap((p) => unitsOf(p, citation));
}
