/**
 * Whether sherpa-onnx will find at least one token in a text. It must be
 * asked before generate(): sherpa-onnx-node 1.13.8 crashes the whole process
 * (a segmentation fault, measured here) when a text gives it no token, e.g.
 * characters its lexicon does not have. For a model with a lexicon, a text
 * is speakable when one of its characters or words is in the lexicon, or is
 * a punctuation mark with a token of its own; for a model that reads with
 * espeak-ng data, when it has a letter or a digit.
 */

import { readFileSync } from "node:fs";

export type Speakable = (text: string) => boolean;

export function speakableFor(lexiconFiles: readonly string[], tokensFile: string, espeakData: boolean): Speakable {
  const letters = (text: string) => /[\p{L}\p{N}]/u.test(text);
  // Models with espeak-ng data read what their lexicon lacks with it (Kokoro, piper).
  if (lexiconFiles.length === 0 || espeakData) return letters;
  const words = new Set<string>();
  for (const file of lexiconFiles) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const word = line.trim().split(/\s+/)[0];
      if (word) words.add(word.toLowerCase());
    }
  }
  const marks = new Set<string>();
  for (const line of readFileSync(tokensFile, "utf8").split("\n")) {
    const symbol = line.split(/\s+/)[0];
    if (symbol && /^\p{P}$/u.test(symbol)) marks.add(symbol);
  }
  return (text) => {
    const lower = text.toLowerCase();
    for (const char of lower) if (words.has(char) || marks.has(char)) return true;
    return lower.split(/[^\p{L}\p{N}']+/u).some((word) => word.length > 0 && words.has(word));
  };
}
