/**
 * What the main thread and a synthesis worker (espeak/, sherpa/, mp3/) send
 * each other, and the encoding step every worker shares: PCM to MP3, fitted
 * for a gapless join when another part follows. Issue #14's formats plug in here.
 */

import { move, transferableSymbol, valueSymbol } from "piscina";
import { encodeMp3, type Mp3Encoder } from "./mp3/encoder.js";
import { fitForJoin } from "./mp3/gapless.js";

/** PCM to encode (the "encode" task). */
export interface EncodeTask {
  pcm: Int16Array;
  sampleRate: number;
  fitForJoin: boolean;
}

export type WorkerFailure = { ok: false; reason: "voice_unavailable" | "no_audio" | "nothing_to_speak" | "failed"; detail: string };

export type WorkerOutcome =
  | { ok: true; kind: "mp3"; mp3: Uint8Array; samples: number; sampleRate: number; voiced: VoicedSpan | undefined }
  | { ok: true; kind: "pcm"; pcm: Int16Array; sampleRate: number }
  | WorkerFailure;

/** An outcome whose buffer piscina transfers; the main thread receives the WorkerOutcome. */
export type Moved = ReturnType<typeof move>;

/** What a synthesis task asks for: the encoded audio (the default), or the samples alone. */
export type TaskOutput = "mp3" | "pcm";

/** A worker's samples as the task asked for them: MP3 in this thread, or PCM moved to the caller. */
export function finish(
  encoder: Mp3Encoder,
  samples: Int16Array,
  sampleRate: number,
  fit: boolean,
  output: TaskOutput = "mp3",
): Moved | WorkerOutcome {
  if (isSilent(samples)) return { ok: false, reason: "no_audio", detail: "silent audio" };
  if (output === "pcm") {
    const pcm = samples.byteOffset === 0 && samples.byteLength === samples.buffer.byteLength ? samples : samples.slice();
    const outcome: WorkerOutcome = { ok: true, kind: "pcm", pcm, sampleRate };
    return move({ [transferableSymbol]: [pcm.buffer], [valueSymbol]: outcome });
  }
  return encodeOutcome(encoder, samples, sampleRate, fit);
}

export function encodeOutcome(encoder: Mp3Encoder, samples: Int16Array, sampleRate: number, fit: boolean): Moved {
  const pcm = fit ? fitForJoin(samples, sampleRate) : samples;
  const mp3 = encodeMp3(encoder, pcm, sampleRate);
  const outcome: WorkerOutcome = { ok: true, kind: "mp3", mp3, samples: pcm.length, sampleRate, voiced: voicedSpan(pcm) };
  // Hand the MP3's buffer to the main thread instead of copying it.
  return move({ [transferableSymbol]: [mp3.buffer], [valueSymbol]: outcome });
}

/** Where sound begins and ends in some samples: [from, to), in samples. */
export interface VoicedSpan {
  from: number;
  to: number;
}

// Samples this quiet (-60 dBFS) are silence, as speech/mp3/gapless.ts counts them.
const SILENCE = 32;

/** The span from the first to the last sample louder than silence; undefined for silence. Sentence timings start from it. */
export function voicedSpan(samples: Int16Array): VoicedSpan | undefined {
  let from = 0;
  while (from < samples.length && Math.abs(samples[from] ?? 0) <= SILENCE) from++;
  if (from === samples.length) return undefined;
  let to = samples.length;
  while (to > from && Math.abs(samples[to - 1] ?? 0) <= SILENCE) to--;
  return { from, to };
}

export function isSilent(samples: Int16Array): boolean {
  for (let i = 0; i < samples.length; i++) if (samples[i] !== 0) return false;
  return true;
}

/** Float samples (-1..1, as neural engines give them) to 16-bit, scaled by the volume control. */
export function toInt16(samples: Float32Array, volume = 1): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const value = Math.max(-1, Math.min(1, (samples[i] ?? 0) * volume));
    out[i] = Math.round(value * 32767);
  }
  return out;
}
