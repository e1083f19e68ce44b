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

describe("our Xing/LAME tag, field by field against the one Debian's lame wrote for the same audio", () => {
  const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  /** The fields a player reads from the Xing/Info frame at the start of `mp3`. */
  function tagFields(mp3: Uint8Array) {
    const first = iterateFrames(mp3).next().value;
    if (!first) throw new Error("no frame");
    const tag = first.offset + xingTagOffset(first.header);
    const lame = tag + 120;
    const bytes = view(mp3);
    return {
      header: [...mp3.subarray(first.offset, first.offset + 4)],
      hasCrc: first.header.hasCrc,
      length: first.header.length,
      kind: new TextDecoder().decode(mp3.subarray(tag, tag + 4)),
      flags: bytes.getUint32(tag + 4),
      frames: bytes.getUint32(tag + 8),
      bytes: bytes.getUint32(tag + 12),
      method: (mp3[lame + 9] ?? 0) & 0x0f,
      bitrate: mp3[lame + 20],
      delayAndPadding: [...mp3.subarray(lame + 21, lame + 24)],
      sourceRate: (mp3[lame + 24] ?? 0) >> 6,
      musicLength: bytes.getUint32(lame + 28),
      musicCrc: bytes.getUint16(lame + 32),
    };
  }

  /** Our Xing frame for the audio of a LAME file, given the sample count LAME's own tag states. */
  function ours(mp3: Uint8Array, constantBitrate: boolean): Uint8Array {
    const first = iterateFrames(mp3).next().value;
    if (!first) throw new Error("no frame");
    const info = describeMp3(mp3);
    const pcmSamples = info.frames * info.samplesPerFrame - (info.encoderDelay ?? 0) - (info.encoderPadding ?? 0);
    const audio = mp3.subarray(first.offset + first.header.length);
    return concat([buildXingFrame(audio, { pcmSamples, constantBitrate }), audio]);
  }

  it.each(["lame-cbr-64k.mp3", "lame-44k-128k.mp3"])("constant bitrate (%s): every field LAME fills, but the seek table", (name) => {
    const lame = lameFixture(name);
    const theirs = tagFields(lame);
    expect(tagFields(ours(lame, true))).toEqual(theirs);
    expect(theirs).toMatchObject({ kind: "Info", flags: 0x0f, method: 1, musicLength: lame.length });
  });

  it("the 44.1 kHz file states its source rate as 44.1 kHz, the 22.05 kHz one as 32 kHz or less", () => {
    expect(tagFields(lameFixture("lame-44k-128k.mp3")).sourceRate).toBe(1);
    expect(tagFields(lameFixture("lame-cbr-64k.mp3")).sourceRate).toBe(0);
  });

  it("variable bitrate: the same counts, method, delay, padding and music CRC; the frame may be smaller", () => {
    const lame = lameFixture("lame-vbr-v5.mp3");
    const built = ours(lame, false);
    const theirs = tagFields(lame);
    const mine = tagFields(built);
    expect(theirs).toMatchObject({ kind: "Xing", method: 4 });
    expect(mine).toMatchObject({
      kind: theirs.kind,
      flags: theirs.flags,
      frames: theirs.frames,
      method: theirs.method,
      delayAndPadding: theirs.delayAndPadding,
      sourceRate: theirs.sourceRate,
      musicCrc: theirs.musicCrc,
      bytes: built.length,
      musicLength: built.length,
    });
    // The smallest frame that holds the tag, at the audio's sample rate and mode.
    expect(mine.length).toBeLessThanOrEqual(theirs.length);
  });

  it("over CRC-protected audio (lame -p): LAME's tag is read where LAME put it, and ours has no CRC of its own", () => {
    const lame = lameFixture("lame-crc-64k.mp3");
    expect(tagFields(lame)).toMatchObject({ hasCrc: true, kind: "Info", frames: 14, bytes: lame.length });
    expect(describeMp3(lame)).toMatchObject({ frames: 14, xingFrames: 14, encoderDelay: lameEncoderDelay, encoderPadding: 873 });
    const built = ours(lame, true);
    expect(tagFields(built)).toMatchObject({ hasCrc: false, kind: "Info", frames: 14, bytes: built.length });
    expect(describeMp3(built)).toMatchObject({ frames: 14, xingFrames: 14, encoderDelay: lameEncoderDelay, encoderPadding: 873 });
  });

  it("reads FFmpeg's copy of the LAME tag ('Lavc') behind an ID3v2 tag", () => {
    const ffmpeg = lameFixture("ffmpeg-64k.mp3");
    expect(describeMp3(ffmpeg)).toMatchObject({
      id3Bytes: 45,
      frames: 14,
      xingKind: "Info",
      xingBytes: 3133,
      encoderDelay: lameEncoderDelay,
      encoderPadding: 873,
    });
  });

  it("leaves out a padding that does not fit its 12 bits rather than wrapping it", () => {
    const audio = audioFrames(12);
    const info = describeMp3(concat([buildXingFrame(audio, { pcmSamples: 100, constantBitrate: true }), audio]));
    // 12 × 576 - 576 - 100 = 6 236 samples of padding: more than 4 095.
    expect(info).toMatchObject({ encoderDelay: 0, encoderPadding: 0, xingFrames: 12 });
  });
});
