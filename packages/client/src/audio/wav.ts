import { FangyanError } from "../core/errors.js";

/*
 * The WAV files the service writes: RIFF, 16-bit PCM, mono. A file fetched
 * while it is still being produced states its sizes as 0xFFFFFFFF ("until the
 * end"), so the data chunk is read to the end of the file in that case.
 */

const UNKNOWN_LENGTH = 0xffff_ffff;

export interface WavAudio {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** The data chunk's bytes: the samples, little-endian. */
  data: Uint8Array;
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

export function readWav(bytes: Uint8Array): WavAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 4) !== "WAVE") {
    throw new FangyanError("The audio is not a WAV file (no RIFF/WAVE header)");
  }
  let format: Omit<WavAudio, "data"> | undefined;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = ascii(bytes, offset, 4);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === "fmt " && size >= 16) {
      format = {
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
    } else if (id === "data") {
      if (format === undefined) break;
      const end = size === UNKNOWN_LENGTH || body + size > bytes.length ? bytes.length : body + size;
      return { ...format, data: bytes.subarray(body, end) };
    }
    // Chunks are padded to an even size.
    offset = body + size + (size % 2);
  }
  throw new FangyanError("The WAV file has no format or no data chunk");
}

/** One WAV file, 16-bit mono, stating its exact sizes. */
export function writeWav(sampleRate: number, data: readonly Uint8Array[]): Uint8Array {
  const dataBytes = data.reduce((sum, chunk) => sum + chunk.length, 0);
  if (dataBytes > UNKNOWN_LENGTH - 36)
    throw new FangyanError("The joined audio is over the 4 GiB a WAV file can hold; ask for fewer characters at a time");
  const out = new Uint8Array(44 + dataBytes);
  const view = new DataView(out.buffer);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i++) out[offset + i] = value.charCodeAt(i);
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, dataBytes, true);
  let offset = 44;
  for (const chunk of data) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
