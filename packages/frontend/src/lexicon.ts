/**
 * The operator lexicon: word -> reading per dialect, which wins over the
 * romanisation libraries and the normaliser (but not over an inline override).
 *
 * File format, UTF-8, one entry per line, tab-separated:
 *
 *     # dialect  word      reading
 *     cmn        重庆      chong2 qing4
 *     yue        行長      hong4 zoeng2
 *     cmn        iPhone    ai4 feng4
 *
 * Empty lines and lines starting with # are ignored. A word of Han characters
 * needs one syllable per character; any other word (letters, digits) any number.
 * Cantonese words match Traditional and Simplified text alike, Mandarin words
 * Simplified and Traditional alike. Latin letters match in either case, and
 * only as whole words (an entry for Tom does not match inside Tomorrow).
 */

import { parseReading } from "./override.js";
import { foldWidth, isHan, isLatin } from "./text/chars.js";
import { toSimplified, toTraditional } from "./text/script.js";
import { type Dialect, isDialect, type Unit } from "./types.js";

export interface LexiconEntry {
  dialect: Dialect;
  word: string;
  syllables: string[];
}

export class LexiconError extends Error {
  override readonly name = "LexiconError";
}

/** The form both the text and the entries are compared in; Latin letters in either case (iPhone, iphone). */
export function lexiconKey(word: string, dialect: Dialect): string {
  const folded = foldWidth(word);
  return (dialect === "yue" ? toTraditional(folded) : toSimplified(folded)).toLowerCase();
}

export class Lexicon {
  private readonly words: Record<Dialect, Map<string, string[]>> = { cmn: new Map(), yue: new Map() };
  private readonly longest: Record<Dialect, number> = { cmn: 0, yue: 0 };

  constructor(entries: readonly LexiconEntry[] = []) {
    for (const entry of entries) {
      const key = lexiconKey(entry.word, entry.dialect);
      this.words[entry.dialect].set(key, entry.syllables);
      this.longest[entry.dialect] = Math.max(this.longest[entry.dialect], [...key].length);
    }
  }

  get size(): number {
    return this.words.cmn.size + this.words.yue.size;
  }

  /** The longest entry that starts at `chars[at]`, as units, and how many characters it covers. */
  match(chars: readonly string[], at: number, dialect: Dialect): { length: number; units: Unit[] } | undefined {
    const words = this.words[dialect];
    for (let length = Math.min(this.longest[dialect], chars.length - at); length > 0; length--) {
      const word = chars.slice(at, at + length);
      // An entry that starts or ends with a letter matches whole Latin words only: Tom, not Tomorrow.
      const cut = (isLatin(word[0]) && isLatin(chars[at - 1])) || (isLatin(word.at(-1)) && isLatin(chars[at + length]));
      const syllables = cut ? undefined : words.get(word.join("").toLowerCase());
      if (syllables) return { length, units: unitsOf(word, syllables) };
    }
    return undefined;
  }
}

function unitsOf(word: string[], syllables: string[]): Unit[] {
  const perChar = word.every(isHan) && word.length === syllables.length;
  const units: Unit[] = perChar
    ? word.map((text, i) => ({ text, syllables: [syllables[i] ?? ""], fixed: true }))
    : [{ text: word.join(""), syllables: [...syllables], fixed: true }];
  return units.map((unit, i) => (i === 0 ? { ...unit, wordStart: true } : unit));
}

/** Parses a lexicon file; every problem is reported with its line number. */
export function parseLexicon(content: string, source = "lexicon"): Lexicon {
  const entries: LexiconEntry[] = [];
  const problems: string[] = [];
  for (const [index, raw] of content.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const entry = entryOf(raw, `${source}:${index + 1}`);
    if (typeof entry === "string") problems.push(entry);
    else entries.push(entry);
  }
  if (problems.length > 0) throw new LexiconError(`Lexicon ${source} is invalid:\n  ${problems.join("\n  ")}`);
  return new Lexicon(entries);
}

/** One line's entry, or what is wrong with it. */
function entryOf(raw: string, where: string): LexiconEntry | string {
  const fields = raw.split("\t").map((f) => f.trim());
  const [dialect = "", word = "", reading = ""] = fields;
  if (fields.length !== 3) return `${where}: expected 3 tab-separated fields (dialect, word, reading), found ${fields.length}`;
  if (!isDialect(dialect)) return `${where}: unknown dialect "${dialect}" (cmn or yue)`;
  if (word === "") return `${where}: the word is empty`;
  const syllables = parseReading(reading, dialect);
  if (!syllables) return `${where}: "${reading}" is not a ${dialect === "cmn" ? "pinyin" : "Jyutping"} reading with tone numbers`;
  const chars = [...word];
  if (chars.every(isHan) && chars.length !== syllables.length) {
    return `${where}: "${word}" has ${chars.length} characters but ${syllables.length} syllables`;
  }
  return { dialect, word, syllables };
}
