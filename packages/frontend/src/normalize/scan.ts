/**
 * The normaliser: turns one stretch of text into units and pauses. Numbers
 * and their company are written out in words with their readings, Latin
 * acronyms spelt and other Latin words kept as English words, Han characters
 * kept for the romaniser, punctuation made into pauses, and whatever is
 * neither (emoji, symbols) skipped; letters of other scripts are skipped and
 * reported as unread.
 */

import { englishUnit, isSpokenWord, LATIN_WORD } from "../english.js";
import { isHan, isLatin } from "../text/chars.js";
import type { Dialect, PauseKind, Token, Unit } from "../types.js";
import { mandarinJoiner } from "./joiners.js";
import { letterName } from "./letters.js";
import { recogniseNumeric } from "./numeric.js";
import { pauseOf, strongerPause } from "./punctuation.js";
import { unitsOf } from "./units.js";
import { type Phrase, vocabularyOf } from "./vocabulary.js";

/** Collects tokens, merging runs of punctuation into one pause. */
export class TokenList {
  readonly tokens: Token[] = [];
  /** Letters of scripts that are not read (kana, Hangul, Cyrillic): not spoken, but reported. */
  readonly unread: string[] = [];
  private wordStart = true;
  /** The last thing read was a number, so a following - or ~ means "to". */
  numeric = false;

  units(list: readonly Unit[], numeric = false): void {
    list.forEach((unit, i) => {
      const startsWord = i === 0 && (this.wordStart || unit.fixed);
      this.tokens.push({ kind: "unit", unit: startsWord ? { ...unit, wordStart: true } : unit });
    });
    this.wordStart = false;
    this.numeric = numeric;
  }

  tokensFrom(list: readonly Token[], numeric: boolean): void {
    for (const token of list) {
      if (token.kind === "pause") this.pause(token.pause);
      else this.units([token.unit]);
    }
    this.numeric = numeric;
  }

  pause(kind: PauseKind): void {
    const last = this.tokens.at(-1);
    if (last?.kind === "pause") last.pause = strongerPause(last.pause, kind);
    else if (last) this.tokens.push({ kind: "pause", pause: kind });
    this.wordStart = true;
    this.numeric = false;
  }

  /** A space separates words (between Latin words, it is all that does). */
  space(): void {
    this.wordStart = true;
  }

  /** A line that ends without punctuation (a title, a list item) still ends a sentence. */
  lineBreak(): void {
    if (this.tokens.at(-1)?.kind === "unit") this.pause("period");
    this.wordStart = true;
  }
}

const MATH: Record<string, keyof ReturnType<typeof mathWords>> = {
  "+": "plus",
  "=": "equals",
  "×": "times",
  "*": "times",
  "÷": "dividedBy",
};

function mathWords(dialect: Dialect) {
  const v = vocabularyOf(dialect);
  return { plus: v.plus, equals: v.equals, times: v.times, dividedBy: v.dividedBy, to: v.to };
}

/** Characters that can start a numeric expression: digits, signs, currency symbols. */
const NUMERIC_START = /[\d\-(+¥$€£HUNRC]/;

export function normalizeText(text: string, dialect: Dialect, out: TokenList = new TokenList()): TokenList {
  const words = mathWords(dialect);
  let at = 0;
  while (at < text.length) {
    const char = String.fromCodePoint(text.codePointAt(at) ?? 0);
    const joined = dialect === "cmn" && /[-~～—/]/.test(char) ? mandarinJoiner(text, at) : undefined;
    if (joined) {
      out.units(unitsOf(joined.phrase));
      at += joined.length;
      continue;
    }
    const match = NUMERIC_START.test(char) ? recogniseNumeric(text, at, dialect) : undefined;
    if (match) {
      out.tokensFrom(match.tokens, true);
      at = match.end;
      continue;
    }
    const between = operatorBetweenNumbers(text, at, out.numeric);
    if (between) {
      const word: Phrase = between === "to" ? words.to : words[MATH[between] ?? "plus"];
      out.units(unitsOf(word));
      at += between === "to" ? (/^\s*[-~～—]/.exec(text.slice(at))?.[0].length ?? 1) : 1;
      continue;
    }
    if (isLatin(char)) {
      const word = LATIN_WORD.exec(text.slice(at))?.[0] ?? char;
      out.units(isSpokenWord(word) ? [englishUnit(word)] : spell(word, dialect));
      at += word.length;
      continue;
    }
    if (isHan(char)) out.units([{ text: char, syllables: [], fixed: false }]);
    else if (/\p{L}/u.test(char)) out.unread.push(char);
    else if (char === "\n" || char === "\r") out.lineBreak();
    else if (/\s/.test(char)) out.space();
    else if (char === "." && text.startsWith("...", at)) {
      out.pause("ellipsis");
      at += 3;
      continue;
    } else {
      const pause = pauseOf(char);
      if (pause) out.pause(pause);
      // Anything else (emoji, symbols, other scripts) is not spoken, and not an error.
    }
    at += char.length;
  }
  return out;
}

/** "-"/"~" between two numbers is a range (14:00-15:30); + = × ÷ between numbers are read. */
function operatorBetweenNumbers(text: string, at: number, afterNumber: boolean): string | undefined {
  if (!afterNumber) return undefined;
  const rest = text.slice(at);
  if (/^\s*[-~～—]\s*\d/.test(rest)) return "to";
  const char = rest[0] ?? "";
  if (char in MATH && /^.\s*[\d(]/.test(rest)) return char;
  return undefined;
}

function spell(word: string, dialect: Dialect): Unit[] {
  return [...word].flatMap((letter) => {
    const name = letterName(letter, dialect);
    return name ? unitsOf(name) : [];
  });
}
