import { readText } from "../read.js";
import type { Dialect } from "../types.js";
import { corpusFile, type EvalItem, loadCorpus, syllableErrors } from "./corpus.js";

/**
 * `npm run eval:reading`: syllable accuracy (tones included) of the front-end
 * against the hand-checked corpus, per dialect and per category. Exits 1 when a
 * dialect is below its target. `--verbose` lists every sentence with an error.
 */

const TARGETS: Record<Dialect, number> = { cmn: 0.98, yue: 0.97 };
const verbose = process.argv.includes("--verbose");

interface Tally {
  syllables: number;
  errors: number;
  sentences: number;
  wrong: number;
}

const empty = (): Tally => ({ syllables: 0, errors: 0, sentences: 0, wrong: 0 });
const accuracy = (t: Tally) => (t.syllables === 0 ? 1 : Math.max(0, 1 - t.errors / t.syllables));
const percent = (x: number) => `${(x * 100).toFixed(2)}%`;

/** A sentence with Latin letters in it: English words, brands, acronyms inside the Chinese. */
const isCodeMixed = (item: EvalItem) => /[A-Za-z]/.test(item.text);

function evaluate(dialect: Dialect, items: EvalItem[]): { total: Tally; mixed: Tally; byCategory: Map<string, Tally> } {
  const total = empty();
  const mixed = empty();
  const byCategory = new Map<string, Tally>();
  for (const item of items) {
    const actual = readText(item.text, { dialect }).syllables;
    const errors = syllableErrors(item.gold, actual);
    const category = byCategory.get(item.category) ?? byCategory.set(item.category, empty()).get(item.category);
    for (const tally of [total, category, isCodeMixed(item) ? mixed : undefined]) {
      if (!tally) continue;
      tally.syllables += item.gold.length;
      tally.errors += errors;
      tally.sentences += 1;
      tally.wrong += errors > 0 ? 1 : 0;
    }
    if (verbose && errors > 0) {
      console.log(
        `  ${dialect}:${item.line} [${item.category}] ${item.text}\n    gold: ${item.gold.join(" ")}\n    read: ${actual.join(" ")}`,
      );
    }
  }
  return { total, mixed, byCategory };
}

let failed = false;
for (const dialect of ["cmn", "yue"] as const) {
  const items = loadCorpus(corpusFile(dialect));
  const { total, mixed, byCategory } = evaluate(dialect, items);
  const ok = accuracy(total) >= TARGETS[dialect];
  failed ||= !ok;
  console.log(
    `${dialect}: ${percent(accuracy(total))} of ${total.syllables} syllables in ${total.sentences} sentences (target ${percent(TARGETS[dialect])}) ${ok ? "ok" : "BELOW TARGET"}`,
  );
  console.log(
    `  ${"code-mixed".padEnd(14)} ${percent(accuracy(mixed)).padStart(8)}  ${String(mixed.syllables).padStart(5)} syllables  ${mixed.sentences} sentences, ${mixed.wrong} with errors (text with Latin letters)`,
  );
  for (const [category, tally] of [...byCategory].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(
      `  ${category.padEnd(14)} ${percent(accuracy(tally)).padStart(8)}  ${String(tally.syllables).padStart(5)} syllables  ${tally.sentences} sentences, ${tally.wrong} with errors`,
    );
  }
}
process.exit(failed ? 1 : 0);
