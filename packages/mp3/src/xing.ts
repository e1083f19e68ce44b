/**
 * Builds the Xing/Info frame LAME would write if asked: a silent first frame
 * that tells players the stream's frame count, byte count and seek table
 * (without it a VBR file's duration is guessed from its first frame), plus
 * the LAME extension with the encoder delay and padding for gapless joins.
 */

import { type Frame, iterateFrames, layer3Bitrates, layer3FrameLength, xingFlags, xingTagOffset } from "./frames.js";

/** LAME pads this many samples before the audio (ENCDELAY); decoders add their own 529 on top. */
export const lameEncoderDelay = 576;

export interface XingFrameOptions {
  /**
   * Samples of real audio in the stream, from which the padding is derived.
   * Absent when unknown: the tag then states no delay or padding.
   */
  pcmSamples: number | undefined;
  /** Constant-bitrate streams get an "Info" tag, variable ones a "Xing" tag. */
  constantBitrate: boolean;
  /** Samples of silence the encoder put before the audio; LAME's 576 unless told. */
  encoderDelay?: number;
}

const xingTagLength = 4 + 4 + 4 + 4 + 100 + 4; // id, flags, frames, bytes, TOC, quality
const lameExtensionLength = 36;
const lameVersion = "LAME3.100"; // the encoder wasm-media-encoders 0.7 compiles

/** Returns the Xing/Info frame to put before `audio`, a run of Layer III frames. */
export function buildXingFrame(audio: Uint8Array, options: XingFrameOptions): Uint8Array {
  const frames = [...iterateFrames(audio)];
  const first = frames[0];
  if (first === undefined) throw new Error("Cannot build a Xing frame for a stream without frames");
  const { header } = first;

  const noCrc = { ...header, hasCrc: false };
  const needed = xingTagOffset(noCrc) + xingTagLength + lameExtensionLength;
  const bitrate = chooseBitrate(first, needed, options.constantBitrate);
  const length = layer3FrameLength(header.version, bitrate, header.sampleRate, false);
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);

  // Same version, sample rate and channel mode as the audio, so decoders that
  // do not know the tag decode it as one frame of silence; no CRC, no padding.
  const b1 = audio[first.offset + 1] ?? 0;
  const b2 = audio[first.offset + 2] ?? 0;
  const b3 = audio[first.offset + 3] ?? 0;
  out[0] = 0xff;
  out[1] = b1 | 1;
  out[2] = ((layer3Bitrates(header.version).indexOf(bitrate) + 1) << 4) | (b2 & 0b1100);
  out[3] = b3 & 0b1100_1111;

  const totalBytes = length + audio.length;
  let at = xingTagOffset(noCrc);
  writeAscii(out, at, options.constantBitrate ? "Info" : "Xing");
  view.setUint32(at + 4, xingFlags.frames | xingFlags.bytes | xingFlags.toc | xingFlags.quality);
  view.setUint32(at + 8, frames.length);
  view.setUint32(at + 12, totalBytes);
  out.set(seekTable(frames, length, totalBytes), at + 16);
  // at + 116: quality indicator, left 0 (unknown).
  at += xingTagLength;

  const samples = frames.length * header.samplesPerFrame;
  const delay = options.encoderDelay ?? lameEncoderDelay;
  const padding = options.pcmSamples === undefined ? -1 : samples - delay - options.pcmSamples;
  writeAscii(out, at, lameVersion);
  out[at + 9] = options.constantBitrate ? 1 : 4; // tag revision 0; method CBR or VBR (mtrh, LAME's -V)
  out[at + 20] = options.constantBitrate ? Math.min(header.bitrateKbps, 255) : 0;
  // Both fields are 12 bits; a value that does not fit is left out rather than wrapped.
  if (padding >= 0 && padding <= 0xfff && delay >= 0 && delay <= 0xfff) {
    out[at + 21] = delay >> 4;
    out[at + 22] = ((delay & 0xf) << 4) | (padding >> 8);
    out[at + 23] = padding & 0xff;
  }
  out[at + 24] = sourceRateBits(header.sampleRate) << 6;
  view.setUint32(at + 28, totalBytes);
  view.setUint16(at + 32, crc16(audio, 0, audio.length));
  view.setUint16(at + 34, crc16(out, 0, at + 34));
  return out;
}

function chooseBitrate(first: Frame, needed: number, constantBitrate: boolean): number {
  const { version, sampleRate, bitrateKbps } = first.header;
  const fits = (kbps: number) => layer3FrameLength(version, kbps, sampleRate, false) >= needed;
  // A CBR stream stays strictly constant when the tag fits at its own bitrate;
  // at 48 kbit/s and 22 050 Hz it does not, and the smallest frame that fits is used.
  if (constantBitrate && fits(bitrateKbps)) return bitrateKbps;
  const smallest = layer3Bitrates(version).find(fits);
  if (smallest === undefined) throw new Error("No bitrate leaves room for a Xing tag");
  return smallest;
}

/** TOC entry i: the position of the frame at i % of the duration, in 1/256ths of the file. */
function seekTable(frames: readonly Frame[], xingLength: number, totalBytes: number): Uint8Array {
  const toc = new Uint8Array(100);
  for (let i = 0; i < 100; i++) {
    const frame = frames[Math.floor((i * frames.length) / 100)];
    const offset = xingLength + (frame?.offset ?? 0);
    toc[i] = Math.min(255, Math.floor((offset * 256) / totalBytes));
  }
  return toc;
}

function sourceRateBits(sampleRate: number): number {
  if (sampleRate <= 32_000) return 0;
  if (sampleRate === 44_100) return 1;
  if (sampleRate === 48_000) return 2;
  return 3;
}

function writeAscii(out: Uint8Array, at: number, text: string): void {
  for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
}

// CRC-16/ARC (polynomial 0x8005, reflected), the checksum LAME uses for both tag fields.
const crcTable = Uint16Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  return crc;
});

export function crc16(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i++) {
    crc = (crc >>> 8) ^ (crcTable[(crc ^ (bytes[i] ?? 0)) & 0xff] ?? 0);
  }
  return crc;
}
