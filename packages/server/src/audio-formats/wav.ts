/**
 * WAV (RIFF, 16-bit PCM, mono). A whole file states its exact length; a
 * stream states 0xFFFFFFFF for the RIFF and data sizes, the "unknown length"
 * that ffmpeg, browsers and most players read as "until the end".
 */

import { AUDIO_FORMATS } from "@fangyan/protocol";
import { type AudioFormat, concatBytes, pcmBytes } from "./format.js";

const unknownLength = 0xffff_ffff;

function header(sampleRate: number, dataBytes: number | undefined): Uint8Array {
  const out = new Uint8Array(44);
  const view = new DataView(out.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[offset + i] = text.charCodeAt(i);
  };
  ascii(0, "RIFF");
  view.setUint32(4, dataBytes === undefined ? unknownLength : 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // bytes a second
  view.setUint16(32, 2, true); // bytes a frame
  view.setUint16(34, 16, true); // bits a sample
  ascii(36, "data");
  view.setUint32(40, dataBytes ?? unknownLength, true);
  return out;
}

export const wavFormat: AudioFormat = {
  name: "wav",
  ...AUDIO_FORMATS.wav,
  outputSampleRate: (sampleRate) => sampleRate,
  encode: async (pcm, sampleRate) => {
    if (pcm.length * 2 > unknownLength - 36) throw new Error("A WAV file cannot hold more than 4 GiB");
    return concatBytes([header(sampleRate, pcm.length * 2), pcmBytes(pcm)]);
  },
  start: async (sampleRate) => {
    let started = false;
    return {
      push: (pcm) => {
        const bytes = pcmBytes(pcm);
        if (started) return bytes;
        started = true;
        return concatBytes([header(sampleRate, undefined), bytes]);
      },
      end: () => (started ? new Uint8Array(0) : header(sampleRate, undefined)),
      // The stored file states its exact sizes, as a whole file does.
      seal: (file) => {
        const sealed = Uint8Array.from(file);
        sealed.set(header(sampleRate, file.length - 44));
        return sealed;
      },
    };
  },
};
