/** Phone numbers: digit by digit (Mandarin 1 as 幺), with a short pause between groups. */

import type { Token } from "../types.js";
import { COMMA, type Match, type Scan, sticky, unitTokens } from "./match.js";
import { digitByDigit } from "./numbers.js";

const PATTERNS = [
  String.raw`(?:\+?86[- ]?)?1[3-9]\d(?:[- ]?\d{4}){2}(?!\d)`,
  String.raw`\+?852[- ]?\d{4}[- ]?\d{4}(?!\d)`,
  String.raw`0\d{2,3}-\d{7,8}(?!\d)`,
  String.raw`\(0\d{2,3}\)\s?\d{7,8}(?!\d)`,
  String.raw`[48]00[- ]?\d{3}[- ]?\d{4}(?!\d)`,
  String.raw`[2-9]\d{3} \d{4}(?!\d)`,
];

/** After these words any run of digits is a number to dial (拨打110, 電話：2345-6789). */
const DIAL_WORDS = /(电话|電話|热线|熱線|手机|手機|致电|致電|拨打|撥打|报警|報警|号码|號碼|传真|傳真|分机|分機|TEL|Tel|tel|Fax|fax|call|Call|WhatsApp)\s*[:：]?\s*(是|為|为)?\s*$/;

export function phone(scan: Scan): Match | undefined {
  let found = PATTERNS.map((p) => sticky(p, scan)).find((m) => m !== null);
  if (!found && DIAL_WORDS.test(scan.text.slice(Math.max(0, scan.at - 12), scan.at))) {
    found = sticky(/\d(?:[\d -]*\d)?(?!\d)/, scan) ?? undefined;
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
