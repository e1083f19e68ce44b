/**
 * Joins MP3 files made by one encoder setting into one playable file: what a
 * client needs when a text too long for one request comes back in parts.
 */

import { type FrameHeader, iterateFrames, readXingTag } from "./frames.js";
import { buildXingFrame } from "./xing.js";

interface Part {
  audio: Uint8Array[];
  audioBytes: number;
  header: FrameHeader;
  bitrates: Set<number>;
  encoderDelay: number | undefined;
  encoderPadding: number | undefined;
}

function readPart(bytes: Uint8Array, index: number): Part {
  const audio: Uint8Array[] = [];
  const bitrates = new Set<number>();
  let header: FrameHeader | undefined;
  let audioBytes = 0;
  let encoderDelay: number | undefined;
  let encoderPadding: number | undefined;
  for (const frame of iterateFrames(bytes)) {
    if (header === undefined) {
      header = frame.header;
      const tag = readXingTag(bytes, frame);
      if (tag) {
        // Each part's own tag describes only that part; the whole gets a new one.
        encoderDelay = tag.encoderDelay;
        encoderPadding = tag.encoderPadding;
        continue;
      }
    }
    audio.push(bytes.subarray(frame.offset, frame.offset + frame.header.length));
    audioBytes += frame.header.length;
    bitrates.add(frame.header.bitrateKbps);
  }
  if (header === undefined || audio.length === 0) throw new Error(`MP3 part ${index + 1} holds no audio frames`);
  return { audio, audioBytes, header, bitrates, encoderDelay, encoderPadding };
}

function sameStream(a: FrameHeader, b: FrameHeader): boolean {
  return a.version === b.version && a.sampleRate === b.sampleRate && a.channels === b.channels;
}

/**
 * Concatenates the audio frames of every part (ID3 tags and each part's
 * Xing/Info frame dropped) behind one new Xing/Info frame for the whole, so
 * that players show the full duration and can seek. The duration is exactly
 * the sum of the parts': no frame is added or removed. Gapless data comes from
 * the ends (the first part's encoder delay, the last part's padding); the
 * silences between parts stay, a few tens of milliseconds at each join.
 *
 * Each part must start on a frame that needs no earlier data (a fresh
 * encoder's stream does), and all parts must share MPEG version, sample rate
 * and channel count; otherwise this throws.
 */
export function joinMp3(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 0) throw new Error("Nothing to join: no MP3 parts given");
  const read = parts.map(readPart);
  const [first] = read;
  const last = read[read.length - 1];
  if (first === undefined || last === undefined) throw new Error("Nothing to join: no MP3 parts given");
  read.forEach((part, index) => {
    if (!sameStream(first.header, part.header)) {
      throw new Error(
        `MP3 part ${index + 1} is ${part.header.sampleRate} Hz MPEG-${part.header.version} with ${part.header.channels} channel(s), ` +
          `unlike part 1 (${first.header.sampleRate} Hz MPEG-${first.header.version}, ${first.header.channels}); it cannot be joined`,
      );
    }
  });

  let audioBytes = 0;
  let frames = 0;
  const bitrates = new Set<number>();
  for (const part of read) {
    audioBytes += part.audioBytes;
    frames += part.audio.length;
    for (const kbps of part.bitrates) bitrates.add(kbps);
  }
  const audio = new Uint8Array(audioBytes);
  let offset = 0;
  for (const part of read) {
    for (const frame of part.audio) {
      audio.set(frame, offset);
      offset += frame.length;
    }
  }

  const samples = frames * first.header.samplesPerFrame;
  const delay = first.encoderDelay;
  const padding = last.encoderPadding;
  const xing = buildXingFrame(audio, {
    constantBitrate: bitrates.size === 1,
    encoderDelay: delay,
    pcmSamples: delay === undefined || padding === undefined ? undefined : samples - delay - padding,
  });
  const out = new Uint8Array(xing.length + audio.length);
  out.set(xing, 0);
  out.set(audio, xing.length);
  return out;
}

/**
 * The audio frames of a file alone, without ID3 tags or its Xing/Info frame:
 * what a stream made of parts carries when its total length is not yet known
 * as it starts (a constant-bitrate stream plays and seeks without a header).
 */
export function audioFramesOf(mp3: Uint8Array): Uint8Array {
  const part = readPart(mp3, 0);
  const out = new Uint8Array(part.audioBytes);
  let offset = 0;
  for (const frame of part.audio) {
    out.set(frame, offset);
    offset += frame.length;
  }
  return out;
}
