/** Jyutping syllables with tone numbers 1-6: the spelling Cantonese readings use throughout. */

const INITIALS = ["gw", "kw", "ng", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h", "w", "z", "c", "s", "j"];
/**
 * The vowel part of a final as espeak's Cantonese phoneme table names it,
 * longest first; what follows it (p t k m n) is a separate phoneme.
 */
const NUCLEI = [
  ...["aang", "aai", "aau", "aa", "ang", "ai", "au", "a"],
  ...["eoi", "eng", "ei", "eu", "eo", "e", "ing", "iu", "i"],
  ...["oeng", "oe", "oi", "ou", "ong", "o", "ung", "ui", "u", "yu"],
];
const CODAS = ["", "p", "t", "k", "m", "n"];

export interface Jyutping {
  initial: string;
  nucleus: string;
  coda: string;
  tone: number;
  /** m, ng, hm, hng: a nasal that is a syllable by itself */
  syllabic: boolean;
}

export function parseJyutping(syllable: string): Jyutping | undefined {
  const match = /^([a-z]+)([1-6])$/.exec(syllable.toLowerCase());
  if (!match) return undefined;
  const letters = match[1] ?? "";
  const tone = Number(match[2]);
  if (["m", "ng", "hm", "hng"].includes(letters)) {
    const initial = letters.startsWith("h") ? "h" : "";
    return { initial, nucleus: letters.slice(initial.length), coda: "", tone, syllabic: true };
  }
  for (const initial of ["", ...INITIALS]) {
    if (!letters.startsWith(initial)) continue;
    const final = letters.slice(initial.length);
    const nucleus = NUCLEI.find((n) => final.startsWith(n));
    if (nucleus === undefined) continue;
    const coda = final.slice(nucleus.length);
    // -ng after a plain vowel is its own nucleus (ang, eng...), so only these codas remain.
    if (CODAS.includes(coda)) return { initial, nucleus, coda, tone, syllabic: false };
  }
  return undefined;
}

export function canonicalJyutping(syllable: string): string | undefined {
  return parseJyutping(syllable) ? syllable.toLowerCase() : undefined;
}
