/**
 * Mandarin marks between words that are read as a word: the dash of a range
 * after a date or time word (22日-25日 二十二日到二十五日, where the dash is not
 * a minus sign) and the slash of a rate (100元/人 一百元每人).
 */

import { type Phrase, phrase, vocabularyOf } from "./vocabulary.js";

const TIME_WORD_BEFORE = /[日号月点时分秒年]$/;
const RANGE_DASH = /^[-~～—]\s*(?=\d)/;
const RATE_BEFORE = /(元|块|米|公里|千米|公斤|千克|斤|克|次|吨|升|度|里)$/;
const RATE_AFTER =
  /^\/(?=人|天|月|年|小时|分钟|秒|次|斤|公斤|千克|克|平方米|平米|米|公里|件|个|份|位|间|晚|张|瓶|盒|箱|吨|升|周|星期|台|辆|套|例)/;
const PER = phrase("每", "mei3");

/** The word a mark at `at` is read as, and how many characters it covers, or undefined. */
export function mandarinJoiner(text: string, at: number): { phrase: Phrase; length: number } | undefined {
  const before = text.slice(0, at).trimEnd();
  const rest = text.slice(at);
  const dash = TIME_WORD_BEFORE.test(before) ? RANGE_DASH.exec(rest) : null;
  if (dash) return { phrase: vocabularyOf("cmn").to, length: dash[0].length };
  if (RATE_BEFORE.test(before) && RATE_AFTER.test(rest)) return { phrase: PER, length: 1 };
  return undefined;
}
