/** Reads the 16-bit PCM WAV files espeak-ng writes with -w. */

import { endianness } from "node:os";

export interface WavAudio {
  sampleRate: number;
  channels: number;
  /** Interleaved 16-bit samples. */
  samples: Int16Array;
}

export function readWav(bytes: Uint8Array): WavAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || tag(bytes, 0) !== "RIFF" || tag(bytes, 8) !== "WAVE") {
    throw new Error("Not a RIFF/WAVE file");
  }
  let format: { sampleRate: number; channels: number } | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = tag(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === "fmt ") {
      const encoding = view.getUint16(body, true);
      const bits = view.getUint16(body + 14, true);
      if (encoding !== 1 || bits !== 16) throw new Error(`Unsupported WAV encoding ${encoding}/${bits} bit`);
      format = { channels: view.getUint16(body + 2, true), sampleRate: view.getUint32(body + 4, true) };
    } else if (id === "data") {
      if (format === undefined) throw new Error("WAV data before its format");
      // A writer that cannot seek back leaves a placeholder size; trust the bytes present.
      const length = Math.min(size, bytes.length - body) & ~1;
      return { ...format, samples: int16(bytes, body, length / 2) };
    }
    offset = body + size + (size & 1);
  }
  throw new Error("WAV file has no data chunk");
}

function tag(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + 4));
}

// A view avoids copying up to 58 MB (5 000 characters of speech) when the
// bytes are aligned and the machine is little-endian like WAV; else convert.
function int16(bytes: Uint8Array, offset: number, count: number): Int16Array {
  const start = bytes.byteOffset + offset;
  if (start % 2 === 0 && endianness() === "LE") return new Int16Array(bytes.buffer, start, count);
  const view = new DataView(bytes.buffer, start, count * 2);
  const samples = new Int16Array(count);
  for (let i = 0; i < count; i++) samples[i] = view.getInt16(i * 2, true);
  return samples;
}
