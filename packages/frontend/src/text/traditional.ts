/**
 * Which characters are Traditional. OpenCC's Simplified-to-Traditional table
 * maps every Simplified form, including the many that are also Traditional
 * characters with a meaning of their own in Hong Kong text (吓 haa5 in 睇吓,
 * 郁 juk1 "to move", 涌 cung1 in 葵涌, 干 in 干擾, 里 in 公里), so converting
 * text that is already Traditional would change what it says. A text is
 * taken as Simplified only when it has a character that is not Traditional
 * and that the table changes (这, 们, 银).
 *
 * The Traditional set is Big5 with the Hong Kong supplement (HKSCS), which
 * every Node build can decode (WHATWG "big5"), plus the few characters Hong
 * Kong writing uses that Big5-HKSCS leaves out.
 */

import { isHan } from "./chars.js";

const HONG_KONG_EXTRA = "吓";

let traditional: ReadonlySet<string> | undefined;

export function isTraditionalChar(char: string): boolean {
  traditional ??= big5Characters();
  return traditional.has(char);
}

/** Every Han character Big5-HKSCS encodes: each lead byte with each trail byte, decoded in one pass. */
function big5Characters(): ReadonlySet<string> {
  const bytes: number[] = [];
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) if (trail <= 0x7e || trail >= 0xa1) bytes.push(lead, trail);
  }
  // An unassigned pair decodes to U+FFFD and its trail byte; only the Han characters are kept.
  const decoded = new TextDecoder("big5").decode(new Uint8Array(bytes));
  return new Set([...decoded, ...HONG_KONG_EXTRA].filter(isHan));
}

/**
 * `converted` is `text` through the Simplified-to-Traditional table, character
 * for character. If `text` shows no sign of being Simplified, its characters
 * that are Traditional already are kept as written.
 */
export function keepTraditional(text: string, converted: string): string {
  const original = [...text];
  const changed = [...converted];
  const simplified = original.some((char, i) => changed[i] !== char && !isTraditionalChar(char));
  if (simplified) return converted;
  return changed.map((char, i) => (isTraditionalChar(original[i] ?? "") ? (original[i] ?? char) : char)).join("");
}
