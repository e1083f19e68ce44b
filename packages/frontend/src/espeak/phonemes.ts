/**
 * One syllable as espeak-ng phoneme mnemonics, for [[ ]] phoneme input.
 * Phoneme input makes the audio follow our syllables exactly: espeak's own
 * dictionaries misread polyphones, and its Cantonese voice does not read
 * Jyutping at all.
 */

import { parseJyutping } from "../cantonese/jyutping.js";
import { PINYIN_TEMPLATES, parsePinyin } from "../mandarin/pinyin.js";

export type Stress = "primary" | "secondary" | "none";

const STRESS_MARK: Record<Stress, string> = { primary: "'", secondary: ",", none: "" };

/** espeak's Mandarin tone phonemes; the neutral tone's pitch it sets from the tone before. */
const MANDARIN_TONES = ["", "55", "35", "214", "51", "11"];

export function mandarinPhonemes(syllable: string, stress: Stress): string {
  const parsed = parsePinyin(syllable);
  const template = parsed && PINYIN_TEMPLATES.get(parsed.base);
  if (!parsed || template === undefined) throw new Error(`Not a Mandarin syllable: ${syllable}`);
  return template.replace("'", STRESS_MARK[stress]).replace("_", MANDARIN_TONES[parsed.tone] ?? "");
}

/** espeak's Cantonese phonemes are Jyutping's own letters, except ng- and the syllabic nasals. */
export function cantonesePhonemes(syllable: string, stress: Stress): string {
  const parsed = parseJyutping(syllable);
  if (!parsed) throw new Error(`Not a Cantonese syllable: ${syllable}`);
  const initial = parsed.initial === "ng" ? "N" : parsed.initial;
  const nucleus = parsed.syllabic && parsed.nucleus === "m" ? "m-" : parsed.nucleus;
  return `${initial}${STRESS_MARK[stress]}${nucleus}${parsed.tone}${parsed.coda}`;
}

/** Jyutping initials that are voiced, which espeak-ng pitches from the bottom of the range at the start of a word (input.ts). */
const VOICED_INITIALS = new Set(["m", "n", "ng", "l", "j", "w"]);

/** The syllable starts with a voiced consonant: m-, n-, ng-, l-, j-, w-, or a syllabic nasal (唔 m4, 五 ng5). */
export function startsVoiced(syllable: string): boolean {
  const parsed = parseJyutping(syllable);
  return parsed !== undefined && (VOICED_INITIALS.has(parsed.initial) || (parsed.syllabic && parsed.initial === ""));
}
