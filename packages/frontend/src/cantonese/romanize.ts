/**
 * Cantonese romanisation: to-jyutping reads the (Traditional) Han characters
 * with its word dictionary, customised with our own word list of standard
 * changed tones and polyphones it gets wrong (cantonese/words.ts).
 */

import { customize } from "to-jyutping";
import { rareReading } from "../rare/reading.js";
import { isHan } from "../text/chars.js";
import type { Unit } from "../types.js";
import { rememberingReader, rereadByWords } from "../words.js";
import { canonicalJyutping } from "./jyutping.js";
import { applyCantoneseRules } from "./rules.js";
import { CANTONESE_WORDS } from "./words.js";

type Converter = ReturnType<typeof customize>;

// Customising copies to-jyutping's dictionary, so it is done once, on first use.
let converter: Converter | undefined;

function customized(): Converter {
  converter ??= customize(CANTONESE_WORDS);
  return converter;
}

/** A word read on its own by the customised converter (segmentation traps, ../words.ts). */
const readWord = rememberingReader((word) =>
  customized()
    .getJyutpingList(word)
    .map(([, reading]) => (reading && canonicalJyutping(reading)) || undefined),
);

export function romanizeCantonese(units: readonly Unit[]): Unit[] {
  const converter = customized();
  const input = units.map((unit) => (isHan(unit.text) ? unit.text : "，")).join("");
  const pairs = converter.getJyutpingList(input);
  const read = units.map((unit, i) => {
    if (unit.fixed || !isHan(unit.text)) return unit;
    const syllables = (pairs[i]?.[1] ?? "").split(" ").filter((s) => canonicalJyutping(s) !== undefined);
    const rare = syllables.length === 0 ? rareReading(unit.text, "yue") : undefined;
    return { ...unit, syllables: rare ? [rare] : syllables };
  });
  return applyCantoneseRules(rereadByWords(read, readWord, (pair) => pair in CANTONESE_WORDS));
}
