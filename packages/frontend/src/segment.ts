/**
 * Word segmentation, by the ICU dictionary segmenter that Node ships
 * (Intl.Segmenter). Words matter twice: the Mandarin rules look at them
 * (高兴|地|说: 地 after an adverbial word is the particle de5), and the
 * Mandarin engine input gives each word one stress pattern.
 */

import { isEnglishUnit } from "./english.js";
import type { Unit } from "./types.js";

const segmenter = new Intl.Segmenter("zh", { granularity: "word" });

/**
 * A longer "word" (a run of digits or letters the segmenter keeps whole) is
 * cut into pieces of this many syllables, so that no stress group and no
 * clause part can grow without bound.
 */
export const MAX_WORD_SYLLABLES = 8;

/**
 * Groups consecutive units into words: [start, end) index ranges covering
 * every unit. A unit marked `wordStart` (a number, a letter, an override,
 * an English word, which is always a word of its own)
 * always starts a word; otherwise the segmenter decides.
 */
export function wordsOf(units: readonly Unit[]): Array<[number, number]> {
  const texts = units.map((unit) => unit.text);
  const startsAt: number[] = [];
  let offset = 0;
  for (const text of texts) {
    startsAt.push(offset);
    offset += text.length;
  }
  const boundaries = new Set<number>();
  for (const segment of segmenter.segment(texts.join(""))) boundaries.add(segment.index);

  const words: Array<[number, number]> = [];
  let size = 0;
  units.forEach((unit, i) => {
    const last = words.at(-1);
    const afterEnglish = i > 0 && isEnglishUnit(units[i - 1] ?? unit);
    const start =
      i === 0 || unit.wordStart || afterEnglish || boundaries.has(startsAt[i] ?? 0) || size + unit.syllables.length > MAX_WORD_SYLLABLES;
    if (start || !last) {
      words.push([i, i + 1]);
      size = 0;
    } else last[1] = i + 1;
    size += unit.syllables.length;
  });
  return words;
}
