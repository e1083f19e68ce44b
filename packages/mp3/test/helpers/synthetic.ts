/**
 * MP3 streams built by hand, frame by frame, so that the parser and the join
 * are tested without an encoder. Each frame has a real Layer III header and
 * zero side information (main_data_begin 0): decoders play it as silence.
 */
import { buildXingFrame, layer3Bitrates, layer3FrameLength, type MpegVersion } from "../../src/index.js";

export interface StreamOptions {
  version?: MpegVersion;
  sampleRate?: number;
  /** One bitrate for a CBR stream, or one per frame in turn for a VBR one. */
  kbps?: number | number[];
  mono?: boolean;
}

const versionBits: Record<MpegVersion, number> = { "1": 0b11, "2": 0b10, "2.5": 0b00 };
const rateIndex: Record<number, number> = {
  44100: 0,
  48000: 1,
  32000: 2,
  22050: 0,
  24000: 1,
  16000: 2,
  11025: 0,
  12000: 1,
  8000: 2,
};

/** `count` audio frames; frame i's payload bytes are all `(seed + i) % 128`, so frames can be told apart. */
export function audioFrames(count: number, options: StreamOptions = {}, seed = 0): Uint8Array {
  const version = options.version ?? "2";
  const sampleRate = options.sampleRate ?? 22050;
  const rates = Array.isArray(options.kbps) ? options.kbps : [options.kbps ?? 48];
  const frames: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const kbps = rates[i % rates.length] ?? 48;
    // LAME pads every other frame or so to hold the average; any pattern will do here.
    const padding = i % 2 === 1;
    const length = layer3FrameLength(version, kbps, sampleRate, padding);
    const frame = new Uint8Array(length).fill((seed + i) % 128);
    frame[0] = 0xff;
    frame[1] = 0xe0 | (versionBits[version] << 3) | (0b01 << 1) | 1; // Layer III, no CRC
    frame[2] = ((layer3Bitrates(version).indexOf(kbps) + 1) << 4) | ((rateIndex[sampleRate] ?? 0) << 2) | (padding ? 0b10 : 0);
    frame[3] = options.mono === false ? 0b00 << 6 : 0b11 << 6;
    const sideInfo = version === "1" ? (options.mono === false ? 32 : 17) : options.mono === false ? 17 : 9;
    frame.fill(0, 4, 4 + sideInfo);
    frames.push(frame);
  }
  return concat(frames);
}

/** A file as the server writes it: an Info frame stating the gapless data, then the audio. */
export function encodedFile(count: number, pcmSamples: number, options: StreamOptions = {}, seed = 0): Uint8Array {
  const audio = audioFrames(count, options, seed);
  const constantBitrate = !Array.isArray(options.kbps) || new Set(options.kbps).size === 1;
  return concat([buildXingFrame(audio, { pcmSamples, constantBitrate }), audio]);
}

export function concat(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    out.set(piece, offset);
    offset += piece.length;
  }
  return out;
}

/** An ID3v2.4 tag of `size` body bytes, filled with sync-like 0xFF bytes that must not be read as frames. */
export function id3v2Tag(size: number): Uint8Array {
  const header = [0x49, 0x44, 0x33, 4, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f];
  return concat([Uint8Array.from(header), new Uint8Array(size).fill(0xff)]);
}
