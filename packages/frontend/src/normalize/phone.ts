/** Phone numbers: digit by digit (Mandarin 1 as 幺), with a short pause between groups. */

import type { Token } from "../types.js";
import { COMMA, type Match, type Scan, sticky, unitTokens } from "./match.js";
import { digitByDigit } from "./numbers.js";
import { startsWithMeasureWord } from "./quantities.js";

const PATTERNS = [
  String.raw`(?:\+?86[- ]?)?1[3-9]\d(?:[- ]?\d{4}){2}(?!\d)`,
  String.raw`\+?852[- ]?\d{4}[- ]?\d{4}(?!\d)`,
  String.raw`0\d{2,3}-\d{3,4}-?\d{4}(?!\d)`,
  String.raw`\(0\d{2,3}\)\s?\d{3,4}[- ]?\d{4}(?!\d)`,
  String.raw`[48]00[- ]?\d{3}[- ]?\d{4}(?!\d)`,
  String.raw`[2-9]\d{3} \d{4}(?!\d)`,
];

/** After these words any run of digits is a number to dial (拨打110, 電話：2345-6789). */
const DIAL_WORDS =
  /(电话|電話|热线|熱線|手机|手機|致电|致電|拨打|撥打|报警|報警|号码|號碼|传真|傳真|分机号?|分機|TEL|Tel|tel|Fax|fax|call|Call|WhatsApp)\s*[:：]?\s*(是|為|为|係)?\s*$/;
/** Cantonese 打/撥 "to ring" before three digits or more (打999, 撥1823), unless a measure word follows (打100次). */
const CANTONESE_RING = /(打|撥)\s*$/;
/** Mandarin 拨 "dial" before three digits or more (报警请拨110), unless a measure word follows. */
const MANDARIN_DIAL = /拨(通)?\s*$/;

export function phone(scan: Scan): Match | undefined {
  let found = PATTERNS.map((p) => sticky(p, scan)).find((m) => m !== null);
  if (!found && DIAL_WORDS.test(scan.text.slice(Math.max(0, scan.at - 12), scan.at))) {
    found = sticky(/\d(?:[\d -]*\d)?(?!\d)/, scan) ?? undefined;
  }
  if (!found && scan.dialect === "yue" && CANTONESE_RING.test(scan.text.slice(0, scan.at))) {
    // Width folding made a Chinese comma after the number a ",": only ",5" or ".5" continues it.
    const ring = sticky(/\d{3,}(?!\d|[.,]\d|%)/, scan);
    if (ring && !startsWithMeasureWord(scan.text.slice(scan.at + ring[0].length), "yue")) found = ring;
  }
  if (!found && scan.dialect === "cmn" && MANDARIN_DIAL.test(scan.text.slice(0, scan.at))) {
    // Width folding made a Chinese comma after the number a ",": only ",5" continues it.
    const dial = sticky(/\d{3,}(?!\d|[.,]\d|%)/, scan);
    if (dial && !startsWithMeasureWord(scan.text.slice(scan.at + dial[0].length), "cmn")) found = dial;
  }
  if (!found) return undefined;
  const written = found[0];
  // As written; an unbroken mobile number in the usual 3-4-4.
  let groups = written
    .replace(/^\+?(86|852)[- ]?/, "$1 ")
    .split(/\D+/)
    .filter(Boolean);
  if (groups.length === 1 && /^1[3-9]\d{9}$/.test(written)) groups = [written.slice(0, 3), written.slice(3, 7), written.slice(7)];
  const tokens: Token[] = [];
  groups.forEach((group, i) => {
    if (i > 0) tokens.push(COMMA);
    tokens.push(...unitTokens(digitByDigit(group, scan.v, { code: true })));
  });
  return { end: scan.at + written.length, tokens };
}
