/** What the numeric recognisers share: where they look, what they claim, small helpers. */

import type { Dialect, Token, Unit } from "../types.js";
import type { Vocabulary } from "./vocabulary.js";

export interface Scan {
  text: string;
  at: number;
  dialect: Dialect;
  v: Vocabulary;
}

/** A stretch of text claimed by a recogniser, and its reading. */
export interface Match {
  end: number;
  tokens: Token[];
}

/** A number as written: 1,234.5 or 12 or 0.25. */
export const NUM = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;

export function escapeRegExp(s: string): string {
  return s.replace(/[$.*+?()[\]{}|^\\/]/g, "\\$&");
}

// Compiled once per pattern: the recognisers run at every position of a 5000-character text.
const compiled = new Map<string, RegExp>();

/** Matches `pattern` exactly at the scan position (plus `offset`). */
export function sticky(pattern: string | RegExp, scan: Scan, offset = 0): RegExpExecArray | null {
  const source = typeof pattern === "string" ? pattern : pattern.source;
  let re = compiled.get(source);
  if (!re) {
    re = new RegExp(source, "yu");
    compiled.set(source, re);
  }
  re.lastIndex = scan.at + offset;
  return re.exec(scan.text);
}

export function unitTokens(list: readonly Unit[]): Token[] {
  return list.map((unit) => ({ kind: "unit", unit }));
}

/** Marks units whose 一 keeps its tone (一月, 一点钟). */
export function citation(list: readonly Unit[]): Unit[] {
  return list.map((unit) => ({ ...unit, citation: true }));
}

/** A minus sign, not a hyphen: there is nothing on its left it could join. */
export function negativeAllowed(scan: Scan): boolean {
  return !/[A-Za-z0-9)\]%]$/.test(scan.text.slice(0, scan.at));
}

export const COMMA: Token = { kind: "pause", pause: "comma" };
