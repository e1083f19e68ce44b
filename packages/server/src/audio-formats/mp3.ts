/**
 * MP3 through the speech engines' own LAME encoder and settings (speech/mp3):
 * a whole file carries the Xing/Info frame that states its duration; a stream
 * cannot (its length is unknown when its first frames leave), so a player
 * estimates the duration from the constant bitrate, which also makes it seekable.
 */

import { AUDIO_FORMATS } from "@fangyan/protocol";
import { createMp3Encoder } from "wasm-media-encoders";
import { encodeMp3, type Mp3Encoder, speechMp3Quality } from "../speech/mp3/encoder.js";
import { type AudioFormat, concatBytes, type StreamEncoder } from "./format.js";

const chunkSamples = 1152 * 32;

type Mp3Rate = NonNullable<Parameters<Mp3Encoder["configure"]>[0]["outputSampleRate"]>;
const mp3Rates: readonly number[] = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] satisfies Mp3Rate[];

function mp3Rate(rate: number): Mp3Rate {
  if (!mp3Rates.includes(rate)) throw new Error(`MP3 cannot carry ${rate} Hz audio`);
  return rate as Mp3Rate;
}

function toFloat(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = (pcm[i] ?? 0) / 32768;
  return out;
}

class Mp3Stream implements StreamEncoder {
  readonly #encoder: Mp3Encoder;

  constructor(encoder: Mp3Encoder, sampleRate: number) {
    this.#encoder = encoder;
    const rate = { sampleRate, channels: 1, outputSampleRate: mp3Rate(sampleRate) } as const;
    const quality = speechMp3Quality;
    encoder.configure(quality.mode === "cbr" ? { ...rate, bitrate: quality.kbps } : { ...rate, vbrQuality: quality.quality });
  }

  push(pcm: Int16Array): Uint8Array {
    const pieces: Uint8Array[] = [];
    for (let start = 0; start < pcm.length; start += chunkSamples) {
      // The encoder owns the returned bytes until its next call, so keep a copy.
      pieces.push(this.#encoder.encode([toFloat(pcm.subarray(start, start + chunkSamples))]).slice());
    }
    return concatBytes(pieces);
  }

  end(): Uint8Array {
    return this.#encoder.finalize().slice();
  }
}

// One LAME instance (WebAssembly, a few hundred KB) encodes one file or stream at a time, so each takes its own.
export const mp3Format: AudioFormat = {
  name: "mp3",
  ...AUDIO_FORMATS.mp3,
  outputSampleRate: (sampleRate) => sampleRate,
  encode: async (pcm, sampleRate) => encodeMp3(await createMp3Encoder(), pcm, sampleRate),
  start: async (sampleRate) => new Mp3Stream(await createMp3Encoder(), sampleRate),
};
