/** The shapes that pass between the stages of the front-end. */

/** The dialects the front-end reads, by ISO 639-3 code. */
export const FRONTEND_DIALECTS = ["cmn", "yue"] as const;
export type Dialect = (typeof FRONTEND_DIALECTS)[number];

export function isDialect(code: string): code is Dialect {
  return (FRONTEND_DIALECTS as readonly string[]).includes(code);
}

/** How long a break is, weakest first; each maps to one espeak punctuation mark. */
export type PauseKind = "comma" | "colon" | "semicolon" | "ellipsis" | "period" | "question" | "exclamation";

/**
 * One spoken unit of the normalised text: a Han character, or something the
 * normaliser, an override or the lexicon already decided (a letter, a word).
 */
export interface Unit {
  /** As it appears in the normalised text. */
  text: string;
  /** Romanised syllables with tone digits; empty while the library has yet to read a Han character. */
  syllables: string[];
  /** Decided before romanisation (number, letter, override, lexicon): the library and rules leave it alone. */
  fixed: boolean;
  /**
   * 一 of a digit-by-digit reading or an ordinal keeps its own tone in the
   * engine input (一九九八, 第一), unlike the numeral 一 before a measure word.
   */
  citation?: boolean;
  /** Starts a new word: the segmenter must not join it to the unit before. */
  wordStart?: boolean;
}

export type Token = { kind: "unit"; unit: Unit } | { kind: "pause"; pause: PauseKind };

/** What the front-end makes of one text: the one path that both synthesis and `fangyan read` use. */
export interface Reading {
  dialect: Dialect;
  /** The text as it is read: numbers and symbols written out, overrides resolved, pauses as punctuation. */
  normalized: string;
  /**
   * Every syllable the engine is given, in order, with tone digits (Mandarin
   * neutral tone 5, Jyutping 1-6); an English word spoken as a word is one
   * entry `en:<word in lower case>`.
   */
  syllables: string[];
  /**
   * The espeak-ng input: phoneme runs in [[ ]] per clause, separated by pause
   * punctuation; an English word sits between two runs as plain text.
   */
  engineInput: string;
  /** Characters that have no reading anywhere (and letters of other scripts): not spoken, in text order. */
  unread: string[];
}
