/** Everything that starts with a digit, a sign or a currency symbol, most specific pattern first. */

import type { Dialect } from "../types.js";
import { date, slashed, time } from "./dates.js";
import { expression, money } from "./expression.js";
import type { Match } from "./match.js";
import { phone } from "./phone.js";
import { score } from "./score.js";
import { vocabularyOf } from "./vocabulary.js";

export function recogniseNumeric(text: string, at: number, dialect: Dialect): Match | undefined {
  const scan = { text, at, dialect, v: vocabularyOf(dialect) };
  return money(scan) ?? phone(scan) ?? date(scan) ?? score(scan) ?? time(scan) ?? slashed(scan) ?? expression(scan);
}
