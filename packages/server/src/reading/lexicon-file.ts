/** The operator lexicon file (FANGYAN_LEXICON_FILE), read once at start. */

import { readFileSync } from "node:fs";
import { type Lexicon, parseLexicon } from "@fangyan/frontend";

/** Reads and checks the file; a problem stops the start with the file, line and reason. */
export function loadLexiconFile(path: string): Lexicon {
  let content: string;
  try {
    content = readFileSync(path, "utf8");
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`Lexicon ${path} could not be read: ${why}`, { cause: error });
  }
  return parseLexicon(content, path);
}
