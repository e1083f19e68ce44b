/**
 * Reads WAV files: the 16-bit PCM that espeak-ng writes with -w, and what
 * speech servers send (16-bit PCM or 32-bit float, mono).
 */

import { endianness } from "node:os";

export interface WavAudio {
  sampleRate: number;
  channels: number;
  /** Interleaved 16-bit samples. */
  samples: Int16Array;
}

/** Data sizes that a writer which cannot seek back (a streaming server) leaves in place of the real one. */
const placeholderSizes = new Set([0, 0xffffffff, 0x7fffffff]);

/**
 * `strict`: a data chunk shorter than its header says is an error (a body cut
 * off in transit) instead of being read as far as it goes.
 */
export function readWav(bytes: Uint8Array, options: { strict?: boolean } = {}): WavAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || tag(bytes, 0) !== "RIFF" || tag(bytes, 8) !== "WAVE") {
    throw new Error("Not a RIFF/WAVE file");
  }
  let format: { sampleRate: number; channels: number; float: boolean } | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = tag(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === "fmt ") {
      if (body + 16 > bytes.length) throw new Error("WAV format chunk is cut short");
      const encoding = view.getUint16(body, true);
      const bits = view.getUint16(body + 14, true);
      const float = encoding === 3 && bits === 32;
      if (!float && !(encoding === 1 && bits === 16)) throw new Error(`Unsupported WAV encoding ${encoding}/${bits} bit`);
      format = { channels: view.getUint16(body + 2, true), sampleRate: view.getUint32(body + 4, true), float };
    } else if (id === "data") {
      if (format === undefined) throw new Error("WAV data before its format");
      const present = bytes.length - body;
      if (options.strict && !placeholderSizes.has(size) && size > present) {
        throw new Error(`WAV data is cut short: ${present} of ${size} bytes`);
      }
      // A writer that cannot seek back leaves a placeholder size; trust the bytes present.
      const length = placeholderSizes.has(size) ? present : Math.min(size, present);
      const { float, ...shape } = format;
      if (float) return { ...shape, samples: floatToInt16(view, body, Math.floor(length / 4)) };
      return { ...shape, samples: int16(bytes, body, Math.floor(length / 2)) };
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

function floatToInt16(view: DataView, offset: number, count: number): Int16Array {
  const samples = new Int16Array(count);
  for (let i = 0; i < count; i++) {
    const value = Math.max(-1, Math.min(1, view.getFloat32(offset + i * 4, true)));
    samples[i] = Math.round(value * 32767);
  }
  return samples;
}
