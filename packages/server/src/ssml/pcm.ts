/** Silence, and where speech starts and ends, in the engines' 16-bit samples. */

// As speech/mp3/gapless.ts: samples this quiet (-60 dBFS) are silence.
const quiet = 32;

export function silence(ms: number, sampleRate: number): Int16Array {
  return new Int16Array(Math.round((ms * sampleRate) / 1000));
}

/** The samples from the first sound to the last (empty when there is none). */
export function trimmed(pcm: Int16Array, start: boolean, end: boolean): Int16Array {
  let from = 0;
  let to = pcm.length;
  if (start) while (from < to && Math.abs(pcm[from] ?? 0) <= quiet) from++;
  if (end) while (to > from && Math.abs(pcm[to - 1] ?? 0) <= quiet) to--;
  return pcm.subarray(from, to);
}

export function concat(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
