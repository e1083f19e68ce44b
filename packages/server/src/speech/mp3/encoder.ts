/**
 * PCM to a finished MP3: LAME (as WASM) encodes, then a Xing/Info frame is
 * put in front because this LAME build does not write one.
 */

import { buildXingFrame } from "@fangyan/mp3";
import type { WasmMediaEncoder } from "wasm-media-encoders";

export type Mp3Encoder = WasmMediaEncoder<"audio/mpeg">;

export type Mp3Quality = { mode: "cbr"; kbps: 32 | 40 | 48 | 64 | 80 | 96 | 112 | 128 } | { mode: "vbr"; quality: number };

/**
 * 48 kbit/s constant: what hosted TTS services ship for 22-24 kHz mono
 * speech (6 KB per second, predictable for storage and billing); espeak's
 * formant voices have no detail that a higher rate would keep.
 */
export const speechMp3Quality: Mp3Quality = { mode: "cbr", kbps: 48 };

/** The sample rates MP3 carries (MPEG-1, 2 and 2.5). */
export const mp3SampleRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
type Mp3SampleRate = (typeof mp3SampleRates)[number];

export function isMp3SampleRate(rate: number): rate is Mp3SampleRate {
  return (mp3SampleRates as readonly number[]).includes(rate);
}

// Enough samples per encode() call to keep WASM calls few, small enough that
// an Int16 source is converted through a buffer of 147 KB rather than all at once.
export const chunkSamples = 1152 * 32;

/**
 * Encodes mono PCM (floats in -1..1, or 16-bit integers) at its own sample
 * rate. `configure()` resets the encoder, so one instance serves every call.
 */
export function encodeMp3(
  encoder: Mp3Encoder,
  pcm: Float32Array | Int16Array,
  sampleRate: number,
  quality: Mp3Quality = speechMp3Quality,
): Uint8Array {
  configureMp3(encoder, sampleRate, quality);
  const pieces: Uint8Array[] = [];
  const scratch = new Float32Array(pcm instanceof Int16Array ? chunkSamples : 0);
  for (let start = 0; start < pcm.length; start += chunkSamples) {
    const end = Math.min(start + chunkSamples, pcm.length);
    const chunk = pcm instanceof Float32Array ? pcm.subarray(start, end) : toFloat(pcm, start, end, scratch);
    // The encoder owns the returned bytes until its next call, so keep a copy.
    pieces.push(encoder.encode([chunk]).slice());
  }
  pieces.push(encoder.finalize().slice());

  const audio = concat(pieces);
  const xing = buildXingFrame(audio, { pcmSamples: pcm.length, constantBitrate: quality.mode === "cbr" });
  return concat([xing, audio]);
}

/**
 * Resets the encoder for mono PCM at `sampleRate`, encoded at that rate.
 * Resampling would change the encoder delay written for gapless playback, and
 * the speech engines already produce rates MP3 supports.
 */
export function configureMp3(encoder: Mp3Encoder, sampleRate: number, quality: Mp3Quality = speechMp3Quality): void {
  if (!isMp3SampleRate(sampleRate)) throw new Error(`MP3 cannot carry ${sampleRate} Hz audio`);
  const rate = { sampleRate, channels: 1, outputSampleRate: sampleRate } as const;
  encoder.configure(quality.mode === "cbr" ? { ...rate, bitrate: quality.kbps } : { ...rate, vbrQuality: quality.quality });
}

/** Samples `start` to `end` of 16-bit PCM as the encoder's floats, written into `scratch` (at least that long). */
export function toFloat(pcm: Int16Array, start: number, end: number, scratch: Float32Array): Float32Array {
  const chunk = scratch.subarray(0, end - start);
  for (let i = start; i < end; i++) chunk[i - start] = (pcm[i] ?? 0) / 32768;
  return chunk;
}

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const piece of pieces) {
    out.set(piece, offset);
    offset += piece.length;
  }
  return out;
}
