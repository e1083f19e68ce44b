import { describe, expect, it } from "vitest";
import { describeMp3, id3v2Length, iterateFrames, parseFrameHeader } from "../src/index.js";
import { audioFrames, concat, encodedFile, id3v2Tag } from "./helpers/synthetic.js";

describe("frame headers", () => {
  it("reads the server's format: MPEG-2 Layer III, 48 kbit/s, 22,050 Hz, mono", () => {
    const header = parseFrameHeader(audioFrames(1), 0);
    expect(header).toMatchObject({
      version: "2",
      bitrateKbps: 48,
      sampleRate: 22050,
      channels: 1,
      samplesPerFrame: 576,
      length: 156,
      sideInfoLength: 9,
      hasCrc: false,
    });
  });

  it("counts the padding byte in the frame length", () => {
    const frames = [...iterateFrames(audioFrames(2))];
    expect(frames.map((frame) => frame.header.length)).toEqual([156, 157]);
    expect(frames[1]?.offset).toBe(156);
  });

  it.each([
    ["MPEG-1 at 44,100 Hz", { version: "1", sampleRate: 44100, kbps: 128 } as const, 1152, 417],
    ["MPEG-2.5 at 11,025 Hz", { version: "2.5", sampleRate: 11025, kbps: 32 } as const, 576, 208],
  ])("reads %s", (_name, options, samplesPerFrame, length) => {
    const header = parseFrameHeader(audioFrames(1, options), 0);
    expect(header).toMatchObject({ version: options.version, sampleRate: options.sampleRate, samplesPerFrame, length });
  });

  it("is not fooled by bytes that only look like a sync word", () => {
    expect(parseFrameHeader(Uint8Array.from([0xff, 0xf3, 0xf0, 0xc0]), 0)).toBeUndefined(); // bitrate index 15
    expect(parseFrameHeader(Uint8Array.from([0xff, 0xf3, 0x6c, 0xc0]), 0)).toBeUndefined(); // sample rate index 3
    expect(parseFrameHeader(Uint8Array.from([0xff, 0xf5, 0x60, 0xc0]), 0)).toBeUndefined(); // Layer II
    expect(parseFrameHeader(Uint8Array.from([0xff, 0xf3, 0x60, 0xc2]), 0)).toBeUndefined(); // reserved emphasis
    expect(parseFrameHeader(Uint8Array.from([0xff, 0xf3, 0x60]), 0)).toBeUndefined(); // cut short
  });
});

describe("reading MP3 files", () => {
  it("skips an ID3v2 tag before the audio", () => {
    const mp3 = encodedFile(40, 40 * 576 - 1000);
    const tagged = concat([id3v2Tag(300), mp3]);
    const plain = describeMp3(mp3);
    const info = describeMp3(tagged);
    expect(id3v2Length(tagged)).toBe(310);
    expect(info.id3Bytes).toBe(310);
    expect(info.frames).toBe(plain.frames);
    expect(info.hasXingHeader).toBe(true);
    expect(info.id3Bytes + info.frameBytes).toBe(tagged.length);
  });

  it("ignores a trailing ID3v1 tag", () => {
    const mp3 = encodedFile(40, 40 * 576 - 1000);
    const id3v1 = new Uint8Array(128);
    id3v1.set([0x54, 0x41, 0x47]); // "TAG"
    const info = describeMp3(concat([mp3, id3v1]));
    expect(info.frames).toBe(40);
    expect(info.frameBytes).toBe(mp3.length);
  });

  it("after garbage, takes a sync word for a frame only if another frame follows where it ends", () => {
    // A header that looks valid (64 kbit/s, 22 050 Hz: 208 bytes) followed by zeros, not by a frame.
    const fake = concat([Uint8Array.from([0x00, 0xff, 0xf3, 0x80, 0xc4]), new Uint8Array(300)]);
    const info = describeMp3(concat([audioFrames(5), fake, audioFrames(7)]));
    expect(info.frames).toBe(12);
  });

  it("does not take a header with a size byte over 0x7f for an ID3v2 tag", () => {
    const mp3 = encodedFile(10, 10 * 576 - 1000);
    const notATag = Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0x80, 0, 0, 0x10]);
    expect(id3v2Length(concat([notATag, mp3]))).toBe(0);
    expect(describeMp3(concat([notATag, mp3])).frames).toBe(10);
  });

  it("counts the footer of an ID3v2.4 tag that has one", () => {
    const mp3 = encodedFile(10, 10 * 576 - 1000);
    const tag = id3v2Tag(20);
    tag[5] = 0x10; // footer present
    const footer = Uint8Array.from([0x33, 0x44, 0x49, 4, 0, 0x10, 0, 0, 0, 20]);
    const tagged = concat([tag, footer, mp3]);
    expect(id3v2Length(tagged)).toBe(40);
    const info = describeMp3(tagged);
    expect(info.id3Bytes).toBe(40);
    expect(info.id3Bytes + info.frameBytes).toBe(tagged.length);
  });

  it("resynchronises after garbage between frames", () => {
    const garbage = Uint8Array.from([0x00, 0xff, 0xf3, 0x12, 0x00, 0x01]);
    const info = describeMp3(concat([audioFrames(5), garbage, audioFrames(7)]));
    expect(info.frames).toBe(12);
  });

  it("counts every frame of a stream without a Xing frame as audio", () => {
    const info = describeMp3(audioFrames(25));
    expect(info.hasXingHeader).toBe(false);
    expect(info.xingFrames).toBeUndefined();
    expect(info.frames).toBe(25);
    expect(info.durationMs).toBeCloseTo((25 * 576 * 1000) / 22050, 9);
  });

  it("rejects bytes that hold no MP3 frames", () => {
    expect(() => describeMp3(new TextEncoder().encode("RIFF....WAVEfmt not an mp3 at all"))).toThrow(/No MPEG/);
    expect(() => describeMp3(new Uint8Array(0))).toThrow(/No MPEG/);
  });
});
