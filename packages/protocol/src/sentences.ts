/**
 * Where a sentence ends, the one definition the server (cutting a long text
 * into parts that synthesize in parallel), the client (splitting a text too
 * long for one request) and the text front-end (which pause each mark asks
 * for) share, so that every cut falls where the speech pauses anyway.
 */

/** How strongly a sentence-ending mark pauses, weakest first. */
export type SentenceEndKind = "semicolon" | "ellipsis" | "period" | "question" | "exclamation";

/**
 * The marks that end a sentence wherever they stand, with their pause. A line
 * break ends one too. The ASCII full stop is not here: it is also a decimal
 * point (3.14), so it ends a sentence only before white space (`endsSentence`).
 */
export const SENTENCE_END_MARKS: Readonly<Record<string, SentenceEndKind>> = {
  "。": "period",
  "｡": "period",
  "！": "exclamation",
  "!": "exclamation",
  "？": "question",
  "?": "question",
  "；": "semicolon",
  ";": "semicolon",
  "…": "ellipsis",
  "⋯": "ellipsis",
};

/** Closing quotes and brackets, which stay with the sentence they close: 他说：“好。” */
export const CLOSING_MARKS: ReadonlySet<string> = new Set(["”", "’", "」", "』", "）", ")", "》", "〉", "】", '"', "'"]);

const WHITE_SPACE = /\s/u;

/** Whether `char` ends a sentence when `next` (a character, or "" at the end of the text) follows it. */
export function endsSentence(char: string, next: string): boolean {
  if (char === "\n" || Object.hasOwn(SENTENCE_END_MARKS, char)) return true;
  return char === "." && WHITE_SPACE.test(next);
}

/**
 * A text cut after each sentence end, with the marks, closing quotes and
 * white space that follow it kept in the sentence it ends. Joined, the
 * sentences are the text again.
 */
export function sentencesOf(text: string): string[] {
  const chars = Array.from(text);
  const sentences: string[] = [];
  let start = 0;
  let i = 0;
  while (i < chars.length) {
    if (!endsSentence(chars[i] ?? "", chars[i + 1] ?? "")) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < chars.length && endsSentence(chars[end] ?? "", chars[end + 1] ?? "")) end++;
    while (end < chars.length && (CLOSING_MARKS.has(chars[end] ?? "") || WHITE_SPACE.test(chars[end] ?? ""))) end++;
    sentences.push(chars.slice(start, end).join(""));
    start = end;
    i = end;
  }
  if (start < chars.length) sentences.push(chars.slice(start).join(""));
  return sentences;
}
