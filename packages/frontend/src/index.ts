/**
 * @fangyan/frontend: the text front-end of Fangyan. It reads Chinese text the
 * way a careful announcer would, in Mandarin (pinyin) or Cantonese (Jyutping),
 * and writes the engine input that makes espeak-ng say exactly that.
 */

export { Lexicon, type LexiconEntry, LexiconError, parseLexicon } from "./lexicon.js";
export { canonicalSyllable, type Piece, parseReading } from "./override.js";
export { type ReadOptions, readPieces, readText } from "./read.js";
export { MAX_CLAUSE_SYLLABLES } from "./split.js";
export * from "./ssml/index.js";
export { type Dialect, FRONTEND_DIALECTS, isDialect, type PauseKind, type Reading } from "./types.js";
