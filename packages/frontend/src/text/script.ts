/**
 * Simplified <-> Traditional conversion (OpenCC): Cantonese is read from
 * Traditional characters, which to-jyutping's dictionary is written in, and
 * Mandarin from Simplified, which pinyin-pro's is (乾淨 reads qian2 jing4 to it,
 * 干净 gan1 jing4).
 */

import { Converter, type ConverterFunction } from "opencc-js";
import { keepTraditional } from "./traditional.js";

// Building a converter loads OpenCC's dictionaries (about 0.3 s), so each is
// built once, on first use, and shared: they are pure functions of their input.
let toTraditionalConverter: ConverterFunction | undefined;
let toSimplifiedCn: ConverterFunction | undefined;

/** Simplified text to Traditional; text already Traditional keeps its own characters (see traditional.ts). */
export function toTraditional(text: string): string {
  toTraditionalConverter ??= Converter({ from: "cn", to: "t" });
  return keepTraditional(text, sameLength(text, toTraditionalConverter));
}

export function toSimplified(text: string): string {
  toSimplifiedCn ??= Converter({ from: "tw", to: "cn" });
  return sameLength(text, toSimplifiedCn);
}

/**
 * Overrides and the normaliser keep positions in the text, so a conversion
 * must map each character to one character; should a phrase rule ever change
 * the length, the text is converted character by character instead.
 */
function sameLength(text: string, convert: ConverterFunction): string {
  const converted = convert(text);
  if ([...converted].length === [...text].length) return converted;
  return [...text]
    .map((char) => {
      const one = convert(char);
      return [...one].length === 1 ? one : char;
    })
    .join("");
}
