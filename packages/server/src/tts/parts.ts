/**
 * Where a long text is cut into parts that synthesize in parallel: at the
 * ends of sentences, which the front-end gives a pause, so each part ends in
 * silence (see speech/mp3/gapless.ts) and no reading crosses a cut.
 */

import { sentencesOf } from "@fangyan/protocol";

// Sentence ends are the protocol package's, the same the client and the front-end use.
export { sentencesOf };

const chars = (text: string) => [...text].length;

/**
 * Consecutive sentences grouped into parts whose sizes follow `weights`: a
 * sentence goes to the part in which its middle falls. Empty parts are dropped.
 */
export function groupByWeights(sentences: readonly string[], weights: readonly number[]): string[] {
  const sizes = sentences.map(chars);
  const total = sizes.reduce((a, b) => a + b, 0);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const bounds: number[] = [];
  let cumulative = 0;
  for (const weight of weights) {
    cumulative += weight;
    bounds.push((cumulative / weightSum) * total);
  }
  const parts = weights.map(() => "");
  let before = 0;
  sentences.forEach((sentence, i) => {
    const middle = before + (sizes[i] ?? 0) / 2;
    const index = bounds.findIndex((bound) => middle <= bound);
    parts[index < 0 ? parts.length - 1 : index] += sentence;
    before += sizes[i] ?? 0;
  });
  return parts.filter((part) => part.length > 0);
}

/**
 * Texts shorter than this are one synthesis. Chosen when each call still cost
 * the engine about 190 ms before it spoke (a fresh espeak-ng instance; now
 * the worker keeps one): two 50-character halves of a 100-character text then
 * took 300-340 ms on two threads against 222 ms for the whole in one call.
 * Not measured again since that cost went away (docs/performance.md,
 * "Parallel parts"); short texts share their encoding instead.
 */
export const PARALLEL_MIN_CHARS = 200;

/** A text synthesized on `threads` threads at once, in that many parts of equal size. */
export function evenParts(text: string, threads: number): string[] {
  if (threads < 2 || chars(text) < PARALLEL_MIN_CHARS) return [text];
  return groupByWeights(
    sentencesOf(text),
    Array.from({ length: threads }, () => 1),
  );
}

// Clause ends inside a sentence: where the first part of a streamed text may end early.
const clauseEnd = /[，、：,:]+[”’」』）)》〉"'\s]*/gu;

/** Characters the first part of a streamed text aims at: its synthesis then costs little more than the engine's start. */
export const FIRST_PART_CHARS = 12;

/**
 * A streamed text: its first clauses alone (about FIRST_PART_CHARS, never past
 * the first sentence), so that the first audio is ready in about the engine's
 * fixed cost, then the rest in 2 × threads - 1 parts sized so the threads
 * finish together: the first part's thread takes one double part, the others
 * two single parts each, in the order piscina hands out its queue.
 */
export function streamedParts(text: string, threads: number): string[] {
  const [head, ...tail] = sentencesOf(text);
  if (head === undefined) return [];
  let first = "";
  let cut = 0;
  for (const match of head.matchAll(clauseEnd)) {
    cut = match.index + match[0].length;
    first = head.slice(0, cut);
    if (chars(first) >= FIRST_PART_CHARS) break;
  }
  if (chars(first) < FIRST_PART_CHARS || cut >= head.length) {
    first = head;
    cut = head.length;
  }
  const rest = cut < head.length ? [head.slice(cut), ...tail] : tail;
  if (rest.length === 0) return [first];
  const others = Math.max(0, threads - 1);
  const weights = [...Array.from({ length: others }, () => 1), 2, ...Array.from({ length: others }, () => 1)];
  return [first, ...groupByWeights(rest, weights)];
}
