/**
 * Raw PCM: signed 16-bit little-endian, mono, at 24 kHz whatever the engine's
 * rate (PCM_SAMPLE_RATE, as OpenAI's speech API documents its own `pcm`), since
 * the bytes cannot state their rate; engines at other rates are resampled.
 */

import { AUDIO_FORMATS, PCM_SAMPLE_RATE } from "@fangyan/protocol";
import { type AudioFormat, concatBytes, pcmBytes, type StreamEncoder } from "./format.js";
import { Resampler } from "./resample.js";

function pcmStream(sampleRate: number): StreamEncoder {
  if (sampleRate === PCM_SAMPLE_RATE) return { push: pcmBytes, end: () => new Uint8Array(0) };
  const resampler = new Resampler(sampleRate, PCM_SAMPLE_RATE);
  return { push: (pcm) => pcmBytes(resampler.push(pcm)), end: () => pcmBytes(resampler.end()) };
}

export const pcmFormat: AudioFormat = {
  name: "pcm",
  ...AUDIO_FORMATS.pcm,
  outputSampleRate: () => PCM_SAMPLE_RATE,
  encode: async (pcm, sampleRate) => {
    const stream = pcmStream(sampleRate);
    return concatBytes([stream.push(pcm), stream.end()]);
  },
  start: async (sampleRate) => pcmStream(sampleRate),
};
