/** Pinyin syllables with tone numbers: the spelling Mandarin readings use throughout. */

import { CMN_PHONEMES } from "../espeak/cmn-table.js";

/** Every toneless syllable the engine can say, with its espeak phoneme template. */
export const PINYIN_TEMPLATES: ReadonlyMap<string, string> = new Map(
  CMN_PHONEMES.trim()
    .split(/\s+/)
    .map((entry) => {
      const at = entry.indexOf("=");
      return [entry.slice(0, at), entry.slice(at + 1)] as const;
    }),
);

export interface Pinyin {
  /** "lv", "zhong", "ê" */
  base: string;
  /** 1-4, and 5 for the neutral tone */
  tone: number;
}

/**
 * Reads "zhong1", "lü4", "lu:4", "nv3" or "ma0" (0 is the neutral tone, as
 * pinyin-pro writes it) into its canonical parts, or undefined when it is not
 * a syllable the engine can say.
 */
export function parsePinyin(syllable: string): Pinyin | undefined {
  const match = /^([a-zü:ê]+)([0-5])$/.exec(syllable.toLowerCase());
  if (!match) return undefined;
  const base = (match[1] ?? "").replace(/ü|u:/g, "v");
  const tone = Number(match[2]) || 5;
  return PINYIN_TEMPLATES.has(base) ? { base, tone } : undefined;
}

/** The canonical spelling ("lv4", neutral tone as 5), or undefined. */
export function canonicalPinyin(syllable: string): string | undefined {
  const parsed = parsePinyin(syllable);
  return parsed && `${parsed.base}${parsed.tone}`;
}
