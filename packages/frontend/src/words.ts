/**
 * Segmentation traps: a dictionary word that straddles a better split
 * (被子|弹 in 被子弹打中, 的士|兵 in 投降的士兵, 和尚|未 in 和尚未结婚). The
 * romanisation libraries choose one segmentation greedily (to-jyutping: the
 * longest match from the left) or by a simple word probability (pinyin-pro),
 * and read every character by the word it put it in.
 *
 * A second segmentation scores the alternatives: ICU's dictionary segmenter
 * (Intl.Segmenter), which picks the split of least total cost over word
 * frequencies for the whole clause (被|子弹|打|中, 投降|的|士兵, 和|尚未). Each of
 * its words of two or more characters is checked at both edges: where the
 * pair across ICU's boundary is a word of the library's dictionary and the
 * clause was read with it (被子 bei4 zi5 in 被|子弹, 的士 di1 shi4 in 的|士兵),
 * the library chose the straddling word, and ICU's split wins: its word is
 * read on its own. The character left outside keeps the library's reading: a
 * character read alone takes the library's default, which is worse than its
 * reading in context (子 zi3, 行 xing2), so 的 of 的|士兵 stays di1.
 * Where ICU leaves single characters on both sides (的|士 of a taxi), where
 * the pair is in our hand-checked word list, and for the particle 了 (which a
 * word read alone takes as liao3), the library's reading stands.
 */

import { isHan } from "./text/chars.js";
import type { Unit } from "./types.js";

const segmenter = new Intl.Segmenter("zh", { granularity: "word" });

/** Reads one word on its own: one syllable per character, or undefined where the library does not know it. */
export type WordReader = (word: string) => Array<string | undefined>;

/**
 * A word reader that remembers its answers: the straddle test reads the same
 * short words and single characters again and again. Bounded, so that a
 * stream of new words cannot grow it without limit.
 */
export function rememberingReader(read: WordReader, limit = 50_000): WordReader {
  const known = new Map<string, Array<string | undefined>>();
  return (word) => {
    let reading = known.get(word);
    if (!reading) {
      if (known.size >= limit) known.clear();
      reading = read(word);
      known.set(word, reading);
    }
    return reading;
  };
}

/** Characters whose reading a word read alone gets wrong (了 liao3 in 下了, read alone). */
const KEEP = new Set(["了"]);

const readable = (unit: Unit | undefined): unit is Unit =>
  unit !== undefined && !unit.fixed && isHan(unit.text) && unit.syllables.length === 1;

/** ICU's words as [start, end) unit indexes. */
function icuWords(units: readonly Unit[]): Array<[number, number]> {
  const indexAt = new Map<number, number>();
  let offset = 0;
  units.forEach((unit, i) => {
    indexAt.set(offset, i);
    offset += unit.text.length;
  });
  indexAt.set(offset, units.length);
  const words: Array<[number, number]> = [];
  for (const { segment, index } of segmenter.segment(units.map((unit) => unit.text).join(""))) {
    const start = indexAt.get(index);
    const end = indexAt.get(index + segment.length);
    if (start !== undefined && end !== undefined) words.push([start, end]);
  }
  return words;
}

export function rereadByWords(units: readonly Unit[], readWord: WordReader, checked: (pair: string) => boolean = () => false): Unit[] {
  const out = [...units];
  const words = icuWords(units);
  const reading = (word: readonly Unit[]) => readWord(word.map((unit) => unit.text).join(""));

  /**
   * The library read across ICU's boundary between units a and a+1: a word of
   * its dictionary of two or three characters spans the boundary (read
   * together, it differs from its characters read alone: 被子, 的士, 研究生),
   * and the clause was read with it.
   */
  const straddles = (a: number): boolean => {
    for (let left = 1; left <= 2; left++) {
      for (let right = 1; right <= 2; right++) {
        // A four-character word is an idiom (好吃懒做), which the library reads better than ICU splits it.
        if (left + right > 3) continue;
        const word = units.slice(a + 1 - left, a + 1 + right);
        if (word.length !== left + right || !word.every(readable) || checked(word.map((unit) => unit.text).join(""))) continue;
        const together = reading(word);
        if (!word.every((unit, k) => together[k] === unit.syllables[0])) continue;
        if (word.some((unit, k) => readWord(unit.text)[0] !== together[k])) return true;
      }
    }
    return false;
  };
  const take = (i: number, syllable: string | undefined) => {
    const unit = units[i];
    if (unit && syllable && syllable !== unit.syllables[0] && !KEEP.has(unit.text)) out[i] = { ...unit, syllables: [syllable] };
  };

  for (const [start, end] of words) {
    const span = units.slice(start, end);
    if (span.length < 2 || !span.every(readable)) continue;
    if (!(start > 0 && straddles(start - 1)) && !straddles(end - 1)) continue;
    reading(span).forEach((syllable, k) => {
      take(start + k, syllable);
    });
  }
  return out;
}
