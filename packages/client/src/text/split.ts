import { CLOSING_MARKS, endsSentence, MAX_TEXT_CHARS } from "@fangyan/protocol";

// Where a text may be cut, best first: after a sentence (the protocol's sentence
// ends, which the server and the front-end share), after a clause, at a space.
const CLAUSE_ENDS = new Set(["，", ",", "、", "：", ":"]);
const SPACES = new Set([" ", "\t", "\r", "\u3000"]);

const breakRules: ReadonlyArray<(chars: readonly string[], i: number) => boolean> = [
  (chars, i) => endsSentence(chars[i] ?? "", chars[i + 1] ?? ""),
  (chars, i) => CLAUSE_ENDS.has(chars[i] ?? ""),
  (chars, i) => SPACES.has(chars[i] ?? ""),
];

const SPEAKABLE = /[\p{L}\p{N}]/u;

/** The end (exclusive) of the piece that starts at `start` and may reach `limit`. */
function cutPoint(chars: readonly string[], start: number, limit: number): number {
  // A piece of punctuation alone would be billed and then fail as unspeakable.
  let firstWord = start;
  while (firstWord < limit && !SPEAKABLE.test(chars[firstWord] ?? "")) firstWord++;
  for (const isBreak of breakRules) {
    for (let i = limit - 1; i > firstWord; i--) {
      if (!isBreak(chars, i)) continue;
      let end = i + 1;
      while (end < limit && CLOSING_MARKS.has(chars[end] ?? "")) end++;
      return end;
    }
  }
  return limit;
}

/**
 * Splits a text into pieces of at most `maxChars` characters (code points,
 * the unit the service counts and bills) so that each can be one request.
 * A text that fits is returned whole. Otherwise each piece ends at the last
 * sentence end (。！？!?；; … and their variants, a newline, or a full stop
 * before white space: `endsSentence` in @fangyan/protocol) that fits, else at the last comma,
 * else at a space, else it is cut at the limit; never inside a surrogate
 * pair. Joined, the pieces are the text again, except that pieces of only
 * white space are left out (there is nothing in them to speak).
 */
export function splitText(text: string, maxChars: number = MAX_TEXT_CHARS): string[] {
  if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError("maxChars must be a whole number, 1 or more");
  const chars = Array.from(text);
  if (chars.length <= maxChars) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (chars.length - start > maxChars) {
    const end = cutPoint(chars, start, start + maxChars);
    pieces.push(chars.slice(start, end).join(""));
    start = end;
  }
  pieces.push(chars.slice(start).join(""));
  return pieces.filter((piece) => piece.trim() !== "");
}
