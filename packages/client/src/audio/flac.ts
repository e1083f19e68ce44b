import { FangyanError } from "../core/errors.js";

/*
 * The length of a FLAC file. A whole file states its sample count in
 * STREAMINFO; one fetched while it is still being streamed states 0
 * ("unknown", as the format allows), and is measured from its last frame:
 * with a fixed block size, frame n starts at sample n × block size.
 */

export interface FlacLength {
  sampleRate: number;
  samples: number;
}

/** FLAC's frame-header CRC-8 (polynomial 0x07). */
function crc8(bytes: Uint8Array, from: number, to: number): number {
  let crc = 0;
  for (let i = from; i < to; i++) {
    crc ^= bytes[i] ?? 0;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

/** FLAC's frame CRC-16 (polynomial 0x8005). */
function crc16(bytes: Uint8Array, from: number, to: number): number {
  let crc = 0;
  for (let i = from; i < to; i++) {
    crc ^= (bytes[i] ?? 0) << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

const byteAt = (bytes: Uint8Array, offset: number): number => bytes[offset] ?? 0;

/** A fixed-block-size frame header at `offset`: its frame number and block size, when its CRC-8 holds. */
function frameHeader(bytes: Uint8Array, offset: number): { frame: number; blockSize: number } | undefined {
  if (byteAt(bytes, offset) !== 0xff || byteAt(bytes, offset + 1) !== 0xf8) return undefined;
  const sizeCode = byteAt(bytes, offset + 2) >> 4;
  const rateCode = byteAt(bytes, offset + 2) & 0x0f;
  if (sizeCode === 0 || rateCode === 15 || (byteAt(bytes, offset + 3) & 1) !== 0) return undefined;
  // The frame number, coded like UTF-8.
  let at = offset + 4;
  const lead = byteAt(bytes, at++);
  const extra =
    lead < 0x80 ? 0 : lead >= 0xfe ? 6 : lead >= 0xfc ? 5 : lead >= 0xf8 ? 4 : lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : -1;
  if (extra < 0) return undefined;
  let frame = extra === 0 ? lead : lead & (0x3f >> extra);
  for (let i = 0; i < extra; i++) frame = frame * 64 + (byteAt(bytes, at++) & 0x3f);
  let blockSize: number;
  if (sizeCode === 1) blockSize = 192;
  else if (sizeCode <= 5) blockSize = 576 * 2 ** (sizeCode - 2);
  else if (sizeCode === 6) blockSize = byteAt(bytes, at++) + 1;
  else if (sizeCode === 7) {
    blockSize = byteAt(bytes, at) * 256 + byteAt(bytes, at + 1) + 1;
    at += 2;
  } else blockSize = 256 * 2 ** (sizeCode - 8);
  if (rateCode === 12) at += 1;
  else if (rateCode === 13 || rateCode === 14) at += 2;
  if (at >= bytes.length || crc8(bytes, offset, at) !== byteAt(bytes, at)) return undefined;
  return { frame, blockSize };
}

export function flacLength(bytes: Uint8Array): FlacLength {
  if (bytes.length < 42 || String.fromCharCode(...bytes.subarray(0, 4)) !== "fLaC" || (byteAt(bytes, 4) & 0x7f) !== 0) {
    throw new FangyanError("The audio is not a FLAC file (no fLaC STREAMINFO)");
  }
  // STREAMINFO starts at byte 8: block sizes, frame sizes, then rate (20 bits), channels, bits, samples (36 bits).
  const maxBlock = byteAt(bytes, 10) * 256 + byteAt(bytes, 11);
  const sampleRate = (byteAt(bytes, 18) << 12) | (byteAt(bytes, 19) << 4) | (byteAt(bytes, 20) >> 4);
  const stated = (byteAt(bytes, 21) & 0x0f) * 2 ** 32 + new DataView(bytes.buffer, bytes.byteOffset + 22, 4).getUint32(0);
  if (stated > 0) return { sampleRate, samples: stated };
  // The last frame is the one whose CRC-16 covers it exactly to the end of the file.
  for (let offset = bytes.length - 8; offset >= 42; offset--) {
    const header = frameHeader(bytes, offset);
    if (header === undefined) continue;
    const footer = byteAt(bytes, bytes.length - 2) * 256 + byteAt(bytes, bytes.length - 1);
    if (crc16(bytes, offset, bytes.length - 2) === footer) return { sampleRate, samples: header.frame * maxBlock + header.blockSize };
  }
  // No frame at all: the text made no sound.
  return { sampleRate, samples: 0 };
}

export function flacDurationMs(bytes: Uint8Array): number {
  const { sampleRate, samples } = flacLength(bytes);
  return sampleRate > 0 ? (samples * 1000) / sampleRate : 0;
}
