/** The shapes of an SSML document once parsed and checked (parse.ts), before it is read for a dialect (plan.ts). */

/** Multipliers of the request's own speed, pitch and volume for a span of text. */
export interface Prosody {
  rate: number;
  pitch: number;
  volume: number;
}

export const PLAIN_PROSODY: Prosody = { rate: 1, pitch: 1, volume: 1 };

/** Where in the document an element starts: line and column are 1-based, columns in characters. */
export interface SsmlPlace {
  element: string;
  line: number;
  column: number;
}

/** Why a document is refused, and where. */
export interface SsmlError {
  line: number;
  column: number;
  /** The element the problem is in (the innermost one open), when there is one. */
  element?: string;
  reason: string;
}

export const SAY_AS_KINDS = ["characters", "digits", "telephone", "date", "cardinal", "ordinal", "currency"] as const;
export type SayAsKind = (typeof SAY_AS_KINDS)[number];

export type PhonemeAlphabet = "pinyin" | "jyutping";

/** One thing the document says, in order. */
export type SsmlItem =
  | { kind: "text"; text: string; prosody: Prosody }
  | { kind: "say-as"; as: SayAsKind; format: string | undefined; text: string; prosody: Prosody; place: SsmlPlace }
  | { kind: "phoneme"; alphabet: PhonemeAlphabet; syllables: string[]; text: string; prosody: Prosody; place: SsmlPlace }
  | { kind: "break"; ms: number; place: SsmlPlace }
  /** The end of an `<s>` or `<p>`: a sentence ends here. */
  | { kind: "sentence" };

/** What an element did, for `fangyan read`. */
export interface SsmlNote extends SsmlPlace {
  did: string;
}

export interface SsmlDocument {
  items: SsmlItem[];
  /** One note per element that changes nothing but is worth saying (an ignored element, a prosody span). */
  notes: SsmlNote[];
}

export type SsmlParse = { ok: true; document: SsmlDocument } | { ok: false; error: SsmlError };
