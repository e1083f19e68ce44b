/**
 * MP3 through the speech engines' own LAME encoder and settings (speech/mp3):
 * a whole file carries the Xing/Info frame that states its duration; a stream
 * cannot (its length is unknown when its first frames leave), so a player
 * estimates the duration from the constant bitrate, which also makes it seekable.
 */

import { AUDIO_FORMATS } from "@fangyan/protocol";
import { createMp3Encoder } from "wasm-media-encoders";
import { chunkSamples, configureMp3, encodeMp3, type Mp3Encoder, toFloat } from "../speech/mp3/encoder.js";
import { type AudioFormat, concatBytes, type StreamEncoder } from "./format.js";

class Mp3Stream implements StreamEncoder {
  readonly #encoder: Mp3Encoder;
  readonly #scratch = new Float32Array(chunkSamples);

  constructor(encoder: Mp3Encoder, sampleRate: number) {
    this.#encoder = encoder;
    configureMp3(encoder, sampleRate);
  }

  push(pcm: Int16Array): Uint8Array {
    const pieces: Uint8Array[] = [];
    for (let start = 0; start < pcm.length; start += chunkSamples) {
      // The encoder owns the returned bytes until its next call, so keep a copy.
      const end = Math.min(start + chunkSamples, pcm.length);
      pieces.push(this.#encoder.encode([toFloat(pcm, start, end, this.#scratch)]).slice());
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
