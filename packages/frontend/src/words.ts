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
 * its words of two or more characters is read again on its own. Where that
 * reading differs from the clause reading at the word's first or last
 * character, and the library's clause reading there is exactly what the
 * library reads for the pair across ICU's boundary (被子 bei4 zi5 in
 * 被|子弹), the library chose the straddling word, and the ICU word's own
 * reading is taken. Where ICU leaves single characters (的|士 of a taxi),
 * where the pair is in our hand-checked word list, and for the particle 了
 * (which a word read alone takes as liao3), the library's reading stands.
 */

import { isHan } from "./text/chars.js";
import type { Unit } from "./types.js";

const segmenter = new Intl.Segmenter("zh", { granularity: "word" });

/** Reads one word on its own: one syllable per character, or undefined where the library does not know it. */
export type WordReader = (word: string) => Array<string | undefined>;

/** Characters whose reading a word read alone gets wrong (了 liao3 in 下了, read alone). */
const KEEP = new Set(["了"]);

export function rereadByWords(units: readonly Unit[], readWord: WordReader, checked: (pair: string) => boolean = () => false): Unit[] {
  const out = [...units];
  const starts: number[] = [];
  let offset = 0;
  const indexAt = new Map<number, number>();
  units.forEach((unit, i) => {
    indexAt.set(offset, i);
    starts.push(offset);
    offset += unit.text.length;
  });
  const text = units.map((unit) => unit.text).join("");
  for (const { segment, index } of segmenter.segment(text)) {
    const first = indexAt.get(index);
    if (first === undefined) continue;
    const span: Unit[] = [];
    for (let at = index, i = first; at < index + segment.length && i < units.length; i++) {
      const unit = units[i];
      if (!unit) break;
      span.push(unit);
      at += unit.text.length;
    }
    if (span.length < 2 || span.some((unit) => unit.fixed || !isHan(unit.text) || unit.syllables.length !== 1)) continue;
    const alone = readWord(span.map((unit) => unit.text).join(""));
    const straddles = (inner: number, outer: number): boolean => {
      const [a, b] = inner < outer ? [inner, outer] : [outer, inner];
      const pair = [units[a], units[b]];
      if (pair.some((unit) => !unit || unit.fixed || !isHan(unit.text) || unit.syllables.length !== 1)) return false;
      const text = pair.map((unit) => unit?.text ?? "").join("");
      if (checked(text)) return false;
      const read = readWord(text);
      return pair.every((unit, k) => read[k] === unit?.syllables[0]);
    };
    const last = span.length - 1;
    span.forEach((unit, k) => {
      const syllable = alone[k];
      if (!syllable || syllable === unit.syllables[0] || KEEP.has(unit.text)) return;
      const i = first + k;
      if ((k === 0 && straddles(i, i - 1)) || (k === last && straddles(i, i + 1))) out[i] = { ...unit, syllables: [syllable] };
    });
  }
  return out;
}
