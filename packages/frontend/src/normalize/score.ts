/** Match results: 3:2 read as 三比二 where the words around it make it a score, not a time. */

import { type Match, type Scan, sticky, unitTokens } from "./match.js";
import { cardinal } from "./numbers.js";
import { unitsOf } from "./units.js";
import { phrase } from "./vocabulary.js";

const VERSUS = phrase("比", "bi3");
const BEFORE = /(以|比分|比分是|比分为|战成|打成|踢成|最终)\s*$/;
const AFTER = /^\s*(战胜|击败|胜|负|输|赢|取胜|落败|获胜|逆转|力克|险胜|大胜|完胜|不敌|战平|踢平|打平|的比分)/;

/** Mandarin only for now: 以3:1战胜, 比分2:2. */
export function score(scan: Scan): Match | undefined {
  if (scan.dialect !== "cmn") return undefined;
  const m = sticky(/(\d{1,3})\s?:\s?(\d{1,3})(?![\d:])/, scan);
  if (!m) return undefined;
  const end = scan.at + m[0].length;
  if (!BEFORE.test(scan.text.slice(0, scan.at)) && !AFTER.test(scan.text.slice(end))) return undefined;
  const v = scan.v;
  return { end, tokens: unitTokens([...cardinal(m[1] ?? "0", v), ...unitsOf(VERSUS), ...cardinal(m[2] ?? "0", v)]) };
}
