/**
 * Raw PCM: signed 16-bit little-endian, mono, at the engine's own sample rate
 * (which the route states in a header, since the bytes cannot).
 */

import { type AudioFormat, pcmBytes } from "./format.js";

export const pcmFormat: AudioFormat = {
  name: "pcm",
  contentType: "audio/pcm",
  extension: "pcm",
  outputSampleRate: (sampleRate) => sampleRate,
  encode: async (pcm) => pcmBytes(pcm),
  start: async () => ({ push: pcmBytes, end: () => new Uint8Array(0) }),
};
