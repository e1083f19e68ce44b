/**
 * MPEG audio (Layer III) frame headers: enough to walk a stream frame by
 * frame, measure it, and read the Xing/Info frame that carries its length.
 */

export type MpegVersion = "1" | "2" | "2.5";

export interface FrameHeader {
  version: MpegVersion;
  /** true when a 16-bit CRC follows the header */
  hasCrc: boolean;
  bitrateKbps: number;
  sampleRate: number;
  padding: boolean;
  /** 0 stereo, 1 joint stereo, 2 dual channel, 3 mono */
  channelMode: number;
  channels: 1 | 2;
  samplesPerFrame: number;
  /** Whole frame length in bytes, header included. */
  length: number;
  /** Bytes of side information after the header (and CRC). */
  sideInfoLength: number;
}

export interface Frame {
  offset: number;
  header: FrameHeader;
}

// Index 0 is "free format" and 15 is forbidden; both are treated as not a header.
const bitratesV1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const bitratesV2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const sampleRates: Record<MpegVersion, readonly number[]> = {
  "1": [44100, 48000, 32000],
  "2": [22050, 24000, 16000],
  "2.5": [11025, 12000, 8000],
};

/** Bitrates a Layer III frame of this MPEG version may declare, in kbit/s. */
export function layer3Bitrates(version: MpegVersion): readonly number[] {
  return (version === "1" ? bitratesV1 : bitratesV2).slice(1);
}

export function layer3FrameLength(version: MpegVersion, bitrateKbps: number, sampleRate: number, padding: boolean): number {
  // MPEG-2 and 2.5 frames hold half the samples of MPEG-1, hence half the coefficient.
  const coefficient = version === "1" ? 144_000 : 72_000;
  return Math.floor((coefficient * bitrateKbps) / sampleRate) + (padding ? 1 : 0);
}

export function layer3SideInfoLength(version: MpegVersion, channels: 1 | 2): number {
  if (version === "1") return channels === 1 ? 17 : 32;
  return channels === 1 ? 9 : 17;
}

/** Reads a Layer III frame header at `offset`, or undefined if there is none. */
export function parseFrameHeader(bytes: Uint8Array, offset: number): FrameHeader | undefined {
  if (offset + 4 > bytes.length) return undefined;
  const b0 = bytes[offset] ?? 0;
  const b1 = bytes[offset + 1] ?? 0;
  const b2 = bytes[offset + 2] ?? 0;
  const b3 = bytes[offset + 3] ?? 0;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;

  const versionBits = (b1 >> 3) & 0b11;
  const layerBits = (b1 >> 1) & 0b11;
  if (versionBits === 0b01 || layerBits !== 0b01) return undefined;
  const version: MpegVersion = versionBits === 0b11 ? "1" : versionBits === 0b10 ? "2" : "2.5";

  const bitrateKbps = (version === "1" ? bitratesV1 : bitratesV2)[b2 >> 4];
  const sampleRate = sampleRates[version][(b2 >> 2) & 0b11];
  if (!bitrateKbps || !sampleRate) return undefined;
  // Emphasis value 2 is reserved; real encoders never write it, so it marks a false sync.
  if ((b3 & 0b11) === 0b10) return undefined;

  const padding = (b2 & 0b10) !== 0;
  const channelMode = b3 >> 6;
  const channels = channelMode === 3 ? 1 : 2;
  const hasCrc = (b1 & 1) === 0;
  return {
    version,
    hasCrc,
    bitrateKbps,
    sampleRate,
    padding,
    channelMode,
    channels,
    samplesPerFrame: version === "1" ? 1152 : 576,
    length: layer3FrameLength(version, bitrateKbps, sampleRate, padding),
    sideInfoLength: layer3SideInfoLength(version, channels),
  };
}

/** Length of an ID3v2 tag at the start of `bytes`, or 0 when there is none. */
export function id3v2Length(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  let size = 0;
  for (let i = 6; i < 10; i++) {
    const byte = bytes[i] ?? 0x80;
    // Sizes are "syncsafe": 7 bits per byte, so a set high bit means this is not a tag.
    if (byte & 0x80) return 0;
    size = (size << 7) | byte;
  }
  const hasFooter = ((bytes[5] ?? 0) & 0x10) !== 0;
  return 10 + size + (hasFooter ? 10 : 0);
}

/**
 * Yields every complete frame after any ID3v2 tag. Bytes that are not a frame
 * (a trailing ID3v1 tag, garbage) are skipped; after such a gap a header only
 * counts if another header (or the end) follows it, so a stray 0xFF 0xFx in
 * audio data is not mistaken for a frame.
 */
export function* iterateFrames(bytes: Uint8Array): Generator<Frame> {
  let offset = id3v2Length(bytes);
  let inSync = true;
  while (offset + 4 <= bytes.length) {
    const header = parseFrameHeader(bytes, offset);
    const next = offset + (header?.length ?? 0);
    if (header && next <= bytes.length && (inSync || confirmsSync(bytes, next))) {
      yield { offset, header };
      offset = next;
      inSync = true;
    } else {
      offset += 1;
      inSync = false;
    }
  }
}

function confirmsSync(bytes: Uint8Array, next: number): boolean {
  return next + 4 > bytes.length || parseFrameHeader(bytes, next) !== undefined;
}

/** What a Xing ("Xing" = VBR, "Info" = CBR) frame says about its stream. */
export interface XingTag {
  kind: "Xing" | "Info";
  frames?: number;
  bytes?: number;
  toc?: Uint8Array;
  /** From the LAME extension: samples the encoder added before the audio. */
  encoderDelay?: number;
  /** From the LAME extension: samples the encoder added after the audio. */
  encoderPadding?: number;
}

export const xingFlags = { frames: 1, bytes: 2, toc: 4, quality: 8 } as const;

/**
 * Where a Xing tag starts inside its frame: after the header and as many bytes
 * as the side information takes, whether or not a CRC follows the header.
 * LAME writes it there in CRC-protected streams too (`lame -p`), and FFmpeg
 * and mpg123 read it there; counting the CRC would miss their tags.
 */
export function xingTagOffset(header: FrameHeader): number {
  return 4 + header.sideInfoLength;
}

export function readXingTag(bytes: Uint8Array, frame: Frame): XingTag | undefined {
  const start = frame.offset + xingTagOffset(frame.header);
  const end = frame.offset + frame.header.length;
  if (start + 8 > end) return undefined;
  const kind = String.fromCharCode(...bytes.subarray(start, start + 4));
  if (kind !== "Xing" && kind !== "Info") return undefined;

  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const flags = view.getUint32(start + 4);
  const tag: XingTag = { kind };
  let at = start + 8;
  if (flags & xingFlags.frames && at + 4 <= end) {
    tag.frames = view.getUint32(at);
    at += 4;
  }
  if (flags & xingFlags.bytes && at + 4 <= end) {
    tag.bytes = view.getUint32(at);
    at += 4;
  }
  if (flags & xingFlags.toc && at + 100 <= end) {
    tag.toc = bytes.slice(at, at + 100);
    at += 100;
  }
  if (flags & xingFlags.quality) at += 4;

  // The LAME extension follows; encoders that copy its layout (FFmpeg's "Lavc"/"Lavf") too.
  if (at + 24 <= end) {
    const encoder = String.fromCharCode(...bytes.subarray(at, at + 4));
    if (encoder === "LAME" || encoder === "Lavc" || encoder === "Lavf") {
      const packed = ((bytes[at + 21] ?? 0) << 16) | ((bytes[at + 22] ?? 0) << 8) | (bytes[at + 23] ?? 0);
      tag.encoderDelay = packed >> 12;
      tag.encoderPadding = packed & 0xfff;
    }
  }
  return tag;
}

export interface Mp3Description {
  /** Audio frames, not counting a Xing/Info frame. */
  frames: number;
  sampleRate: number;
  channels: 1 | 2;
  version: MpegVersion;
  samplesPerFrame: number;
  /** frames × samples per frame, so it includes the encoder's delay and padding. */
  durationMs: number;
  hasXingHeader: boolean;
  xingKind?: "Xing" | "Info";
  xingFrames?: number;
  xingBytes?: number;
  encoderDelay?: number;
  encoderPadding?: number;
  /** Length of a leading ID3v2 tag (0 if none). */
  id3Bytes: number;
  /** Sum of all frame lengths, Xing frame included; id3Bytes + frameBytes is the file length of a clean stream. */
  frameBytes: number;
}

export function describeMp3(bytes: Uint8Array): Mp3Description {
  let first: Frame | undefined;
  let xing: XingTag | undefined;
  let frames = 0;
  let frameBytes = 0;
  for (const frame of iterateFrames(bytes)) {
    frameBytes += frame.header.length;
    if (first === undefined) {
      first = frame;
      xing = readXingTag(bytes, frame);
      // The Xing frame is silence that decoders skip, so it is not audio.
      if (xing) continue;
    }
    frames += 1;
  }
  if (first === undefined) throw new Error("No MPEG Layer III frames found");

  const { sampleRate, channels, version, samplesPerFrame } = first.header;
  const description: Mp3Description = {
    frames,
    sampleRate,
    channels,
    version,
    samplesPerFrame,
    durationMs: (frames * samplesPerFrame * 1000) / sampleRate,
    hasXingHeader: xing !== undefined,
    id3Bytes: id3v2Length(bytes),
    frameBytes,
  };
  if (xing) {
    description.xingKind = xing.kind;
    if (xing.frames !== undefined) description.xingFrames = xing.frames;
    if (xing.bytes !== undefined) description.xingBytes = xing.bytes;
    if (xing.encoderDelay !== undefined) description.encoderDelay = xing.encoderDelay;
    if (xing.encoderPadding !== undefined) description.encoderPadding = xing.encoderPadding;
  }
  return description;
}
