/**
 * `<say-as interpret-as="…">`: the content read the way the customer said it
 * is meant, with the normaliser's own vocabulary, so a say-as reads exactly
 * as the same thing recognised in running text does (docs/reading.md). The
 * content is checked when the document is parsed (checkSayAs), read when a
 * voice's dialect is known (sayAsPieces).
 */

import { letterName } from "../normalize/letters.js";
import { escapeRegExp, NUM } from "../normalize/match.js";
import { digitByDigit, quantity } from "../normalize/numbers.js";
import { CURRENCIES, type Currency } from "../normalize/quantities.js";
import { unitsOf } from "../normalize/units.js";
import { phrase, type Vocabulary, vocabularyOf } from "../normalize/vocabulary.js";
import type { Piece } from "../override.js";
import { isLatin } from "../text/chars.js";
import type { Dialect, Unit } from "../types.js";
import type { SayAsKind } from "./types.js";

const DATE_FORMATS = ["ymd", "mdy", "dmy", "ym", "md", "y"] as const;
const ORDINAL_PREFIX = { cmn: phrase("第", "di4"), yue: phrase("第", "dai6") } as const;

const SYMBOLS = CURRENCIES.map((c) => escapeRegExp(c.symbol)).join("|");
const CURRENCY = new RegExp(`^(${SYMBOLS})?\\s?(${NUM})\\s?(${SYMBOLS})?$`, "u");
const CARDINAL = new RegExp(`^([+-]?)(${NUM})$`, "u");

type Checked =
  | { ok: true; kind: "cardinal"; negative: boolean; number: string }
  | { ok: true; kind: "ordinal"; number: string }
  | { ok: true; kind: "currency"; number: string; currency: Currency }
  | { ok: true; kind: "date"; parts: Array<{ field: "y" | "m" | "d"; value: string }> }
  | { ok: true; kind: "text" }
  | { ok: false; reason: string };

function check(as: SayAsKind, content: string, format: string | undefined): Checked {
  const text = content.trim();
  switch (as) {
    case "characters":
    case "digits":
      return text ? { ok: true, kind: "text" } : { ok: false, reason: `<say-as interpret-as="${as}"> is empty` };
    case "telephone":
      return /\d/.test(text) ? { ok: true, kind: "text" } : { ok: false, reason: `"${text}" has no digits to dial` };
    case "cardinal": {
      const m = CARDINAL.exec(text);
      if (!m) return { ok: false, reason: `"${text}" is not a number such as 1234, -5 or 3.14` };
      return { ok: true, kind: "cardinal", negative: m[1] === "-", number: m[2] ?? "0" };
    }
    case "ordinal": {
      const m = /^第?\s*(\d+)$/u.exec(text);
      if (!m) return { ok: false, reason: `"${text}" is not a whole number such as 3 or 第3` };
      return { ok: true, kind: "ordinal", number: m[1] ?? "0" };
    }
    case "currency": {
      const m = CURRENCY.exec(text);
      if (!m || (m[1] && m[3])) return { ok: false, reason: `"${text}" is not an amount such as ¥12.5, HK$38 or 12.50 USD` };
      const symbol = m[1] ?? m[3] ?? "¥";
      const currency = CURRENCIES.find((c) => c.symbol === symbol);
      if (!currency) return { ok: false, reason: `"${symbol}" is not a currency this service reads` };
      return { ok: true, kind: "currency", number: m[2] ?? "0", currency };
    }
    case "date":
      return checkDate(text, format ?? "ymd");
  }
}

function checkDate(text: string, format: string): Checked {
  if (!(DATE_FORMATS as readonly string[]).includes(format)) {
    return { ok: false, reason: `format="${format}" is not one of ${DATE_FORMATS.join(", ")}` };
  }
  const values = text.split(/[-/.\s年月日号號]+/u).filter(Boolean);
  const fields = [...format] as Array<"y" | "m" | "d">;
  if (values.length !== fields.length || values.some((v) => !/^\d+$/.test(v))) {
    return { ok: false, reason: `"${text}" is not a date in the format ${format}` };
  }
  const parts = fields.map((field, i) => ({ field, value: values[i] ?? "" }));
  for (const { field, value } of parts) {
    const n = Number(value);
    if ((field === "y" && value.length > 4) || (field === "m" && (n < 1 || n > 12)) || (field === "d" && (n < 1 || n > 31))) {
      return { ok: false, reason: `"${text}" is not a date in the format ${format}` };
    }
  }
  return { ok: true, kind: "date", parts };
}

/** Why the content cannot be read as `as`, or undefined when it can. */
export function checkSayAs(as: SayAsKind, content: string, format: string | undefined): string | undefined {
  const checked = check(as, content, format);
  return checked.ok ? undefined : checked.reason;
}

/** The content as the front-end should read it for a dialect: decided units, and text for what stays text. */
export function sayAsPieces(as: SayAsKind, content: string, format: string | undefined, dialect: Dialect): Piece[] {
  const v = vocabularyOf(dialect);
  const checked = check(as, content, format);
  if (!checked.ok) return [{ kind: "text", text: content }];
  const units = (list: Unit[]): Piece => ({ kind: "units", units: list });
  switch (checked.kind) {
    case "cardinal":
      return [units([...(checked.negative ? unitsOf(v.minus) : []), ...quantity(checked.number, v)])];
    case "ordinal":
      return [units(citation([...unitsOf(ORDINAL_PREFIX[dialect]), ...quantity(checked.number, v)]))];
    case "currency":
      return [units([...quantity(checked.number, v, { two: true, trimZeros: true }), ...unitsOf(checked.currency.name[dialect])])];
    case "date":
      return [units(checked.parts.flatMap(({ field, value }) => datePart(field, value, v)))];
    case "text":
      break;
  }
  if (as === "telephone") return telephone(content, v);
  return spelt(content, dialect, as === "characters");
}

function citation(list: Unit[]): Unit[] {
  return list.map((unit) => ({ ...unit, citation: true }));
}

function datePart(field: "y" | "m" | "d", value: string, v: Vocabulary): Unit[] {
  if (field === "y") return [...digitByDigit(value, v), ...unitsOf(v.year, true)];
  return citation([...quantity(String(Number(value)), v), ...unitsOf(field === "m" ? v.month : v.day)]);
}

/** Groups as written, digit by digit (Mandarin 1 as 幺), a short pause between them; an unbroken mobile number in 3-4-4. */
function telephone(content: string, v: Vocabulary): Piece[] {
  let groups = content.split(/\D+/).filter(Boolean);
  const only = groups[0];
  if (groups.length === 1 && only && /^1[3-9]\d{9}$/.test(only)) groups = [only.slice(0, 3), only.slice(3, 7), only.slice(7)];
  return groups.flatMap((group, i): Piece[] => [
    ...(i > 0 ? [{ kind: "text", text: "，" } as const] : []),
    { kind: "units", units: digitByDigit(group, v, { code: true }) },
  ]);
}

/** Digits one by one; with `letters`, Latin letters spelt and Han characters one word each too. */
function spelt(content: string, dialect: Dialect, letters: boolean): Piece[] {
  const v = vocabularyOf(dialect);
  const pieces: Piece[] = [];
  for (const char of content) {
    if (/\d/.test(char)) pieces.push({ kind: "units", units: digitByDigit(char, v) });
    else if (letters && isLatin(char)) {
      const name = letterName(char, dialect);
      if (name) pieces.push({ kind: "units", units: unitsOf(name) });
    } else if (letters && /\s/.test(char)) continue;
    else pieces.push({ kind: "text", text: letters ? ` ${char} ` : char });
  }
  return pieces;
}
