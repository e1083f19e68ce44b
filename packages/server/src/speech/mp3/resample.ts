/** Audio at a rate MP3 does not carry is resampled to the nearest rate it carries. */

import { mp3SampleRates } from "./encoder.js";

/** The rate audio at `rate` is encoded at: itself when MP3 carries it, else the nearest carried rate (22 000 Hz: 22 050). */
export function mp3RateFor(rate: number): number {
  let chosen: number = mp3SampleRates[0];
  for (const candidate of mp3SampleRates) if (Math.abs(candidate - rate) < Math.abs(chosen - rate)) chosen = candidate;
  return chosen;
}

/**
 * Linear interpolation: enough for the small steps it is used for (22 000 Hz
 * to 22 050, 25 kHz to 24, 50 kHz to 48), and for a 96 kHz stream to 48 kHz,
 * where what it folds back lies above what a 48 kbit/s MP3 keeps anyway.
 */
export function resample(pcm: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return pcm;
  const length = Math.floor((pcm.length * to) / from);
  const out = new Int16Array(length);
  const step = from / to;
  for (let i = 0; i < length; i++) {
    const at = i * step;
    const index = Math.floor(at);
    const fraction = at - index;
    const a = pcm[index] ?? 0;
    const b = pcm[index + 1] ?? a;
    out[i] = Math.round(a + (b - a) * fraction);
  }
  return out;
}
