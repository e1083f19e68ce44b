import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildXingFrame, crc16, describeMp3, iterateFrames, lameEncoderDelay, readXingTag, xingTagOffset } from "../src/index.js";
import { lameTagChecksums, referenceCrc16Arc } from "./helpers/lame-tag.js";
import { audioFrames, concat, encodedFile } from "./helpers/synthetic.js";

/** A file Debian's `lame` 3.100 wrote (test/fixtures/README.md says how). */
function lameFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
}

function firstFrame(mp3: Uint8Array) {
  const frame = iterateFrames(mp3).next().value;
  if (!frame) throw new Error("no frame");
  return frame;
}

describe("the Xing/Info frame", () => {
  it("a constant-bitrate stream gets an Info frame that counts its frames and bytes", () => {
    const mp3 = encodedFile(100, 100 * 576 - 900);
    const info = describeMp3(mp3);
    expect(info).toMatchObject({ frames: 100, hasXingHeader: true, xingKind: "Info", xingFrames: 100, xingBytes: mp3.length });
    expect(info.id3Bytes + info.frameBytes).toBe(mp3.length);
  });

  it("a variable-bitrate stream gets a Xing frame", () => {
    const mp3 = encodedFile(60, 60 * 576 - 900, { kbps: [32, 48, 64] });
    expect(describeMp3(mp3)).toMatchObject({ xingKind: "Xing", xingFrames: 60, xingBytes: mp3.length });
  });

  it("decodes as one silent frame of the same stream, so players that ignore it lose nothing", () => {
    const audio = audioFrames(10);
    const xing = buildXingFrame(audio, { pcmSamples: 4000, constantBitrate: true });
    const frame = firstFrame(xing);
    expect(frame.header).toMatchObject({ version: "2", sampleRate: 22050, channels: 1, hasCrc: false, length: xing.length });
    // Side information all zero: main_data_begin 0 and no granule data.
    expect([...xing.subarray(4, 4 + frame.header.sideInfoLength)].every((byte) => byte === 0)).toBe(true);
  });

  it("states the encoder delay and padding so that every input sample is accounted for", () => {
    for (const pcmSamples of [5000, 5321, 5759]) {
      const info = describeMp3(encodedFile(12, pcmSamples));
      expect(info.encoderDelay).toBe(lameEncoderDelay);
      expect(info.frames * info.samplesPerFrame - (info.encoderDelay ?? 0) - (info.encoderPadding ?? 0)).toBe(pcmSamples);
    }
  });

  it("takes another encoder delay when told, and states none when the length of the audio is unknown", () => {
    const audio = audioFrames(12);
    const told = concat([buildXingFrame(audio, { pcmSamples: 5000, constantBitrate: true, encoderDelay: 1105 }), audio]);
    expect(describeMp3(told)).toMatchObject({ encoderDelay: 1105, encoderPadding: 12 * 576 - 1105 - 5000 });
    const unknown = concat([buildXingFrame(audio, { pcmSamples: undefined, constantBitrate: true }), audio]);
    expect(describeMp3(unknown)).toMatchObject({ encoderDelay: 0, encoderPadding: 0, xingFrames: 12 });
  });

  it("carries a seek table and CRCs that players can check", () => {
    const mp3 = encodedFile(400, 400 * 576 - 1000);
    const first = firstFrame(mp3);
    const tag = first.offset + xingTagOffset(first.header);
    expect(readXingTag(mp3, first)?.toc).toHaveLength(100);
    const toc = mp3.subarray(tag + 16, tag + 116);
    expect(toc[0]).toBe(Math.floor((first.header.length * 256) / mp3.length));
    for (let i = 1; i < 100; i++) expect(toc[i]).toBeGreaterThanOrEqual(toc[i - 1] ?? 0);
    expect(toc[99]).toBeGreaterThan(240);

    const lame = tag + 120;
    expect(new TextDecoder().decode(mp3.subarray(lame, lame + 9))).toBe("LAME3.100");
    const { musicCrc, tagCrc, expectedMusicCrc, expectedTagCrc } = lameTagChecksums(mp3);
    expect(tagCrc).toBe(expectedTagCrc);
    expect(musicCrc).toBe(expectedMusicCrc);
  });

  it("refuses a stream without frames", () => {
    expect(() => buildXingFrame(new Uint8Array(10), { pcmSamples: 0, constantBitrate: true })).toThrow(/without frames/);
  });
});

describe("the LAME tag's CRC-16, against known answers", () => {
  const ascii = (text: string) => new TextEncoder().encode(text);

  it("is CRC-16/ARC: the catalogue's check value and a few more, from the bitwise reference too", () => {
    // The check value of CRC-16/ARC (also called CRC-16, CRC-IBM) in the published CRC catalogues (reveng).
    expect(crc16(ascii("123456789"), 0, 9)).toBe(0xbb3d);
    expect(referenceCrc16Arc(ascii("123456789"))).toBe(0xbb3d);
    expect(crc16(new Uint8Array(0), 0, 0)).toBe(0);
    for (const text of ["A", "LAME3.100", "The quick brown fox jumps over the lazy dog"]) {
      const bytes = ascii(text);
      expect(crc16(bytes, 0, bytes.length)).toBe(referenceCrc16Arc(bytes));
    }
    // Only the given range counts.
    const padded = ascii("xx123456789yy");
    expect(crc16(padded, 2, 11)).toBe(0xbb3d);
  });

  it.each([
    ["lame-cbr-64k.mp3", "Info", 0xc23c, 0x1f96],
    ["lame-vbr-v5.mp3", "Xing", 0xb342, 0xfc00],
  ])("gives the same tag and music CRCs as Debian's lame wrote into %s", (name, kind, tagCrc, musicCrc) => {
    const mp3 = lameFixture(name);
    const first = iterateFrames(mp3).next().value;
    if (!first) throw new Error("no frame");
    const lame = first.offset + xingTagOffset(first.header) + 120;
    expect(describeMp3(mp3)).toMatchObject({ xingKind: kind, encoderDelay: lameEncoderDelay, xingBytes: mp3.length });
    expect(lameTagChecksums(mp3)).toEqual({ tagCrc, musicCrc, expectedTagCrc: tagCrc, expectedMusicCrc: musicCrc });
    expect(crc16(mp3, first.offset, lame + 34)).toBe(tagCrc);
    expect(crc16(mp3, first.header.length, mp3.length)).toBe(musicCrc);
  });
});
