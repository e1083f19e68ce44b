import { describe, expect, it } from "vitest";
import { audioFramesOf, buildXingFrame, describeMp3, iterateFrames, joinMp3, lameEncoderDelay, readXingTag } from "../src/index.js";
import { audioFrames, concat, encodedFile, id3v2Tag } from "./helpers/synthetic.js";

/** The audio frames of a file, without its Xing/Info frame. */
function audioOf(mp3: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  for (const frame of iterateFrames(mp3)) {
    if (frames.length === 0 && readXingTag(mp3, frame)) continue;
    frames.push(mp3.slice(frame.offset, frame.offset + frame.header.length));
  }
  return frames;
}

// Three parts as the server returns them for three requests: different lengths and paddings.
const parts = [
  encodedFile(300, 300 * 576 - 576 - 311, {}, 0),
  encodedFile(120, 120 * 576 - 576 - 17, {}, 40),
  encodedFile(45, 45 * 576 - 576 - 500, {}, 80),
];

describe("joining MP3 parts", () => {
  it("the joined file lasts exactly as long as its parts together", () => {
    const joined = describeMp3(joinMp3(parts));
    const sum = parts.reduce((total, part) => total + describeMp3(part).durationMs, 0);
    expect(joined.frames).toBe(300 + 120 + 45);
    expect(joined.durationMs).toBeCloseTo(sum, 9);
  });

  it("keeps every audio frame byte for byte and in order, and drops the parts' own headers", () => {
    const joined = joinMp3(parts);
    expect(audioOf(joined)).toEqual(parts.flatMap(audioOf));
  });

  it("opens with one Info frame for the whole that players read the duration and size from", () => {
    const joined = joinMp3(parts);
    const info = describeMp3(joined);
    expect(info).toMatchObject({ hasXingHeader: true, xingKind: "Info", xingFrames: 465, xingBytes: joined.length, id3Bytes: 0 });
    expect(info.frameBytes).toBe(joined.length);
  });

  it("carries the first part's encoder delay and the last part's padding, for gapless players", () => {
    const info = describeMp3(joinMp3(parts));
    expect(info.encoderDelay).toBe(lameEncoderDelay);
    expect(info.encoderPadding).toBe(500);
  });

  it("the encoder delay is the first part's even when the others state another", () => {
    const first = concat([
      buildXingFrame(audioFrames(10), { pcmSamples: 4000, constantBitrate: true, encoderDelay: 1105 }),
      audioFrames(10),
    ]);
    const second = concat([buildXingFrame(audioFrames(10, {}, 10), { pcmSamples: 4000, constantBitrate: true }), audioFrames(10, {}, 10)]);
    expect(describeMp3(joinMp3([first, second]))).toMatchObject({ encoderDelay: 1105, encoderPadding: 10 * 576 - lameEncoderDelay - 4000 });
    expect(describeMp3(joinMp3([second, first]))).toMatchObject({ encoderDelay: lameEncoderDelay, encoderPadding: 10 * 576 - 1105 - 4000 });
  });

  it("drops ID3 tags, and joins parts that have no Xing frame, stating no gapless data then", () => {
    const joined = joinMp3([concat([id3v2Tag(64), audioFrames(10)]), audioFrames(5, {}, 10)]);
    const info = describeMp3(joined);
    expect(info).toMatchObject({ frames: 15, xingFrames: 15, id3Bytes: 0, encoderDelay: 0, encoderPadding: 0 });
    expect(audioOf(joined)).toEqual([...audioOf(audioFrames(10)), ...audioOf(audioFrames(5, {}, 10))]);
  });

  it("one part comes back with the same audio and the same header values", () => {
    const [part] = parts;
    if (!part) throw new Error("no part");
    const once = joinMp3([part]);
    expect(describeMp3(once)).toEqual(describeMp3(part));
    expect(audioOf(once)).toEqual(audioOf(part));
  });

  it("parts of different bitrates make a variable-bitrate file with a Xing frame", () => {
    const joined = joinMp3([encodedFile(20, 10000, { kbps: 48 }), encodedFile(20, 10000, { kbps: 64 })]);
    expect(describeMp3(joined)).toMatchObject({ xingKind: "Xing", frames: 40, xingFrames: 40, xingBytes: joined.length });
  });

  it("refuses parts that are not one stream format, naming the odd part", () => {
    expect(() => joinMp3([audioFrames(5), audioFrames(5, { sampleRate: 24000 })])).toThrow(/part 2 is 24000 Hz/);
    expect(() => joinMp3([audioFrames(5), audioFrames(5, { mono: false })])).toThrow(/part 2/);
  });

  it("refuses an empty list and a part without audio", () => {
    expect(() => joinMp3([])).toThrow(/no MP3 parts/);
    expect(() => joinMp3([audioFrames(3), new TextEncoder().encode("not audio")])).toThrow(/part 2 holds no audio/);
    const file = encodedFile(3, 1000);
    const xingLength = iterateFrames(file).next().value?.header.length ?? 0;
    const onlyHeader = file.subarray(0, xingLength);
    expect(describeMp3(onlyHeader).hasXingHeader).toBe(true);
    expect(() => joinMp3([onlyHeader])).toThrow(/part 1 holds no audio/);
  });
});

describe("the audio frames of a file", () => {
  it("are its frames byte for byte, without ID3 tag or Info frame", () => {
    const [part] = parts;
    if (!part) throw new Error("no part");
    expect(audioFramesOf(part)).toEqual(concat(audioOf(part)));
    expect(describeMp3(audioFramesOf(part))).toMatchObject({ hasXingHeader: false, frames: 300 });
    expect(audioFramesOf(concat([id3v2Tag(64), audioFrames(10)]))).toEqual(audioFrames(10));
  });
});
