import { describeMp3, iterateFrames, joinMp3, lameEncoderDelay, xingTagOffset } from "@fangyan/mp3";
import { beforeAll, describe, expect, it } from "vitest";
import { createMp3Encoder } from "wasm-media-encoders";
import { lameTagChecksums } from "../../../mp3/test/helpers/lame-tag.js";
import { encodeMp3, type Mp3Encoder } from "../../src/speech/mp3/encoder.js";

let encoder: Mp3Encoder;
beforeAll(async () => {
  encoder = await createMp3Encoder();
});

/** A warbling tone standing in for speech: it has pitch, pauses and a length that is not a whole frame. */
function tone(seconds: number, sampleRate: number): Float32Array {
  const pcm = new Float32Array(Math.round(seconds * sampleRate) + 123);
  for (let i = 0; i < pcm.length; i++) {
    const t = i / sampleRate;
    pcm[i] = 0.4 * Math.sin(2 * Math.PI * (180 + 40 * Math.sin(3 * t)) * t) * Math.max(0, Math.sin(Math.PI * 2 * t));
  }
  return pcm;
}

function firstFrame(mp3: Uint8Array) {
  const frame = iterateFrames(mp3).next().value;
  if (!frame) throw new Error("no frame");
  return frame;
}

describe("encoded MP3 streams", () => {
  it("a constant-bitrate stream opens with an Info frame that counts its frames and bytes", () => {
    const mp3 = encodeMp3(encoder, tone(3, 22050), 22050);
    const info = describeMp3(mp3);
    expect(info).toMatchObject({ sampleRate: 22050, channels: 1, version: "2", hasXingHeader: true, xingKind: "Info" });
    expect(info.frames).toBeGreaterThan(0);
    expect(info.xingFrames).toBe(info.frames);
    expect(info.xingBytes).toBe(mp3.length);
    expect(info.durationMs).toBeCloseTo((info.frames * 576 * 1000) / 22050, 6);
  });

  it("a variable-bitrate stream opens with a Xing frame", () => {
    const mp3 = encodeMp3(encoder, tone(3, 22050), 22050, { mode: "vbr", quality: 5 });
    const info = describeMp3(mp3);
    expect(info.xingKind).toBe("Xing");
    expect(info.xingFrames).toBe(info.frames);
    expect(info.xingBytes).toBe(mp3.length);
  });

  it("the file is exactly its frames, with nothing before or after", () => {
    const mp3 = encodeMp3(encoder, tone(2, 22050), 22050);
    const info = describeMp3(mp3);
    expect(info.id3Bytes + info.frameBytes).toBe(mp3.length);
    let expected = 0;
    for (const frame of iterateFrames(mp3)) {
      expect(frame.offset).toBe(expected);
      expected += frame.header.length;
    }
    expect(expected).toBe(mp3.length);
  });

  it("the LAME tag's delay and padding account for every input sample, for gapless joins", () => {
    for (const seconds of [0.5, 1.7, 4]) {
      const pcm = tone(seconds, 22050);
      const info = describeMp3(encodeMp3(encoder, pcm, 22050));
      expect(info.encoderDelay).toBe(lameEncoderDelay);
      expect(info.encoderPadding).toBeGreaterThanOrEqual(0);
      expect(info.frames * info.samplesPerFrame - (info.encoderDelay ?? 0) - (info.encoderPadding ?? 0)).toBe(pcm.length);
    }
  });

  it("the Info frame carries a seek table and CRCs that players can check", () => {
    const mp3 = encodeMp3(encoder, tone(5, 22050), 22050);
    const first = firstFrame(mp3);
    const tag = first.offset + xingTagOffset(first.header);
    const toc = mp3.subarray(tag + 16, tag + 116);
    expect(toc[0]).toBe(Math.floor((first.header.length * 256) / mp3.length));
    for (let i = 1; i < 100; i++) expect(toc[i]).toBeGreaterThanOrEqual(toc[i - 1] ?? 0);
    expect(toc[99]).toBeGreaterThan(240);

    const lame = tag + 120;
    expect(new TextDecoder().decode(mp3.subarray(lame, lame + 9))).toBe("LAME3.100");
    // Against an independent bitwise CRC-16/ARC that the mp3 package pins to Debian lame's own tags.
    const { musicCrc, tagCrc, expectedMusicCrc, expectedTagCrc } = lameTagChecksums(mp3);
    expect(tagCrc).toBe(expectedTagCrc);
    expect(musicCrc).toBe(expectedMusicCrc);
  });

  it("16-bit and float input give the same stream", () => {
    const float = tone(1, 22050);
    const int16 = Int16Array.from(float, (x) => Math.round(x * 32767));
    const fromInt = encodeMp3(encoder, int16, 22050);
    const fromFloat = encodeMp3(
      encoder,
      Float32Array.from(int16, (x) => x / 32768),
      22050,
    );
    expect(fromInt).toEqual(fromFloat);
  });

  it.each([
    [16000, "2"],
    [22050, "2"],
    [24000, "2"],
    [44100, "1"],
    [11025, "2.5"],
  ])("audio at %i Hz is encoded as MPEG-%s at that same rate", (rate, version) => {
    const info = describeMp3(encodeMp3(encoder, tone(1, rate), rate));
    expect(info.sampleRate).toBe(rate);
    expect(info.version).toBe(version);
    expect(info.xingFrames).toBe(info.frames);
  });

  it("a rate MP3 cannot carry is refused rather than resampled", () => {
    expect(() => encodeMp3(encoder, tone(1, 20000), 20000)).toThrow(/20000 Hz/);
  });
});

describe("joining encoded parts, as fy say does", () => {
  it("two encoded texts join into one stream whose duration is their sum and whose Info frame says so", () => {
    const first = encodeMp3(encoder, tone(2.3, 22050), 22050);
    const second = encodeMp3(encoder, tone(1.1, 22050), 22050);
    const joined = describeMp3(joinMp3([first, second]));
    expect(joined.durationMs).toBeCloseTo(describeMp3(first).durationMs + describeMp3(second).durationMs, 9);
    expect(joined).toMatchObject({ xingKind: "Info", xingFrames: joined.frames, encoderDelay: lameEncoderDelay });
    expect(joined.encoderPadding).toBe(describeMp3(second).encoderPadding);
  });
});
