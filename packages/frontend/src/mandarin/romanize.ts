/**
 * Mandarin romanisation: pinyin-pro reads the Han characters (with its own
 * word-level polyphone choice, 一/不 in citation tone), then our rules
 * correct it where it is known to be wrong (mandarin/rules.ts).
 */

import { pinyin } from "pinyin-pro";
import { rareReading } from "../rare/reading.js";
import { isHan } from "../text/chars.js";
import type { Unit } from "../types.js";
import { rememberingReader, rereadByWords } from "../words.js";
import { canonicalPinyin } from "./pinyin.js";
import { applyMandarinRules } from "./rules.js";

/** A word read on its own, as pinyin-pro's dictionary reads it. */
const readWord = rememberingReader((word) =>
  pinyin(word, { type: "array", toneType: "num", toneSandhi: false }).map((s) => canonicalPinyin(s)),
);

/**
 * Fills in the syllables of the library's units in one clause. Fixed units
 * (numbers, overrides) are given to pinyin-pro too, as context: 三只猫 needs
 * the 三 for 只 to be zhi1.
 */
export function romanizeMandarin(units: readonly Unit[]): Unit[] {
  const input = units.map((unit) => (isHan(unit.text) ? unit.text : "，")).join("");
  // Maximum-probability segmentation: slower than the default reverse maximum
  // matching (about 30 ms per 1000 characters) but it chooses polyphones better.
  const items = pinyin(input, { type: "all", toneType: "num", toneSandhi: false, segmentit: 2 });
  const read = units.map((unit, i) => {
    if (unit.fixed || !isHan(unit.text)) return unit;
    const syllable = canonicalPinyin(items[i]?.pinyin ?? "") ?? rareReading(unit.text, "cmn");
    return { ...unit, syllables: syllable ? [syllable] : [] };
  });
  return applyMandarinRules(rereadByWords(read, readWord));
}
