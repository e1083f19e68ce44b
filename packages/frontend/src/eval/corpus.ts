import { readFileSync } from "node:fs";
import type { Dialect } from "../types.js";

/** One evaluation sentence: its category, the text, and the hand-checked gold syllables. */
export interface EvalItem {
  category: string;
  text: string;
  gold: string[];
  line: number;
}

/**
 * `eval/<dialect>.tsv`: `category <TAB> text <TAB> gold syllables separated by spaces`;
 * blank lines and lines starting with `#` are ignored.
 */
export function loadCorpus(file: string | URL): EvalItem[] {
  const items: EvalItem[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((raw, index) => {
      const line = raw.replace(/\r$/, "");
      if (line.trim() === "" || line.startsWith("#")) return;
      const [category, text, gold, extra] = line.split("\t");
      if (!category || !text || !gold || extra !== undefined) {
        throw new Error(`${String(file)}:${index + 1}: expected category<TAB>text<TAB>gold`);
      }
      items.push({ category: category.trim(), text, gold: gold.trim().split(/\s+/), line: index + 1 });
    });
  return items;
}

export function corpusFile(dialect: Dialect): URL {
  // src/eval/corpus.ts and dist/eval/corpus.js are both two folders below the package root.
  return new URL(`../../eval/${dialect}.tsv`, import.meta.url);
}

/** Edit distance between two syllable sequences: substitutions, insertions and deletions. */
export function syllableErrors(expected: readonly string[], actual: readonly string[]): number {
  let previous = Array.from({ length: actual.length + 1 }, (_, j) => j);
  for (let i = 1; i <= expected.length; i++) {
    const current = [i];
    for (let j = 1; j <= actual.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (expected[i - 1] === actual[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1));
    }
    previous = current;
  }
  return previous[actual.length] ?? 0;
}
