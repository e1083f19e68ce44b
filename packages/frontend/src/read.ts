/**
 * readText: the whole front-end, and the only path from request text to
 * engine input. Synthesis and `fangyan read` both call it.
 *
 *   overrides -> width folding and script -> lexicon -> normalisation
 *   -> romanisation (+ rules) -> clauses and words -> engine input
 */

import { romanizeCantonese } from "./cantonese/romanize.js";
import { ENGLISH_PREFIX, isEnglishUnit } from "./english.js";
import { engineInput } from "./espeak/input.js";
import type { Lexicon } from "./lexicon.js";
import { romanizeMandarin } from "./mandarin/romanize.js";
import { sandhiSyllables } from "./mandarin/sandhi.js";
import { PAUSE_TEXT } from "./normalize/punctuation.js";
import { normalizeText, TokenList } from "./normalize/scan.js";
import { type Piece, parseOverrides } from "./override.js";
import { clausesOf } from "./split.js";
import { foldWidth, isLatin } from "./text/chars.js";
import { toSimplified, toTraditional } from "./text/script.js";
import type { Dialect, Reading, Token, Unit } from "./types.js";

export interface ReadOptions {
  dialect: Dialect;
  lexicon?: Lexicon;
}

export function readText(text: string, options: ReadOptions): Reading {
  return readPieces([{ kind: "text", text }], options);
}

/**
 * readText over text whose readings are partly decided already (an SSML
 * `<phoneme>` or `<say-as>`): each text piece is read as readText reads text,
 * inline overrides included; each units piece is spoken as given.
 */
export function readPieces(pieces: readonly Piece[], options: ReadOptions): Reading {
  const { dialect } = options;
  const unread: string[] = [];
  const tokens = romanize(normalize(pieces, options, unread), dialect, unread);
  const clauses = clausesOf(tokens);
  const engineClauses = clauses.map((clause) => {
    const syllables = dialect === "cmn" ? sandhiSyllables(clause.units) : clause.units.map((u) => u.syllables);
    // The engine is given an English word as written (iPhone), which its English dictionary reads.
    const spoken = syllables.map((s, i) =>
      clause.units[i] && isEnglishUnit(clause.units[i]) ? [`${ENGLISH_PREFIX}${clause.units[i].text}`] : s,
    );
    return { words: clause.words.map(([start, end]) => spoken.slice(start, end).flat()), pause: clause.pause };
  });
  return {
    dialect,
    normalized: render(tokens),
    syllables: tokens.flatMap((t) => (t.kind === "unit" ? t.unit.syllables : [])),
    engineInput: engineInput(engineClauses, dialect),
    unread,
  };
}

function normalize(pieces: readonly Piece[], { dialect, lexicon }: ReadOptions, unread: string[]): Token[] {
  const out = new TokenList();
  const expanded = pieces.flatMap((piece) => (piece.kind === "text" ? parseOverrides(piece.text, dialect) : [piece]));
  for (const piece of expanded) {
    if (piece.kind === "units") {
      out.units(piece.units);
      continue;
    }
    const folded = foldWidth(piece.text);
    const converted = dialect === "yue" ? toTraditional(folded) : toSimplified(folded);
    const chars = [...converted];
    let plain = "";
    for (let at = 0; at < chars.length; ) {
      const entry = lexicon?.match(chars, at, dialect);
      if (!entry) {
        plain += chars[at];
        at++;
        continue;
      }
      normalizeText(plain, dialect, out);
      plain = "";
      out.units(entry.units);
      at += entry.length;
    }
    normalizeText(plain, dialect, out);
  }
  unread.push(...out.unread);
  return out.tokens;
}

/**
 * Romanises clause by clause (the libraries need no context across a pause).
 * A character that neither the library nor the rare-character table reads is
 * not spoken, and is listed in `unread`.
 */
function romanize(tokens: readonly Token[], dialect: Dialect, unread: string[]): Token[] {
  const out: Token[] = [];
  let clause: Unit[] = [];
  const flush = () => {
    if (clause.length === 0) return;
    const read = dialect === "cmn" ? romanizeMandarin(clause) : romanizeCantonese(clause);
    for (const unit of read) {
      if (unit.syllables.length > 0) out.push({ kind: "unit", unit });
      else unread.push(unit.text);
    }
    clause = [];
  };
  for (const token of tokens) {
    if (token.kind === "unit") clause.push(token.unit);
    else {
      flush();
      // A pause with nothing read before it (a lone emoji, say) is dropped.
      if (out.at(-1)?.kind === "unit") out.push(token);
    }
  }
  flush();
  return out;
}

function render(tokens: readonly Token[]): string {
  let text = "";
  let previous: Unit | undefined;
  for (const token of tokens) {
    if (token.kind === "pause") {
      text += PAUSE_TEXT[token.pause];
      previous = undefined;
      continue;
    }
    const unit = token.unit;
    const spaced = previous && unit.wordStart && isLatin(unit.text[0]) && isLatin(previous.text.at(-1));
    text += (spaced ? " " : "") + unit.text;
    previous = unit;
  }
  return text;
}
