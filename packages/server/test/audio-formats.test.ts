import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AudioFormat, type AudioFormatName, audioFormats } from "../src/audio-formats/index.js";
import { opusSampleRate } from "../src/audio-formats/opus.js";
import { Resampler } from "../src/audio-formats/resample.js";
import { createEspeakEngine } from "../src/speech/espeak/engine.js";
import { type Decoded, decodeWithFfmpeg, missingDecoders as missing } from "./helpers/decode.js";
import { tempDir } from "./helpers/harness.js";

// A minute of real Cantonese speech from the espeak-ng engine, 22 050 Hz.
const TEXT = "廣州話係粵語嘅一種，喺廣東、香港同澳門都好多人講。今日天氣好好，我哋去公園散步，食咗啲點心先返屋企。".repeat(6);

/** Samples of one frame at the decoded rate: the most a format may differ in duration. */
const frameSamples: Record<AudioFormatName, number> = { mp3: 576, wav: 0, pcm: 0, opus: 960, flac: 0 };

let pcm: Int16Array;
let sampleRate: number;
let dir: string;

beforeAll(async () => {
  const engine = createEspeakEngine({ threads: 1 });
  try {
    if (!engine.synthesizePcm) throw new Error("the espeak engine gives its samples alone");
    ({ pcm, sampleRate } = await engine.synthesizePcm({ text: TEXT, voice: { espeakVoice: "yue" }, speed: 1, pitch: 1, volume: 1 }));
  } finally {
    await engine.close();
  }
  dir = await tempDir("fangyan-formats-");
}, 120_000);

afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

/** How ffmpeg decodes a file of `format` (raw PCM is at the format's stated rate). */
function decode(format: AudioFormat, file: string): Decoded {
  return decodeWithFfmpeg(file, format.name === "pcm" ? { pcmRate: format.outputSampleRate(sampleRate) } : {});
}

async function streamed(format: AudioFormat, pieces: number): Promise<Uint8Array> {
  const encoder = await format.start(sampleRate);
  const parts: Uint8Array[] = [];
  // Uneven pieces, as a long text's parts come out of the engine.
  const step = Math.ceil(pcm.length / pieces) + 137;
  for (let start = 0; start < pcm.length; start += step) parts.push(encoder.push(pcm.subarray(start, start + step)));
  parts.push(encoder.end());
  return Buffer.concat(parts);
}

const codecs: Record<AudioFormatName, string> = { mp3: "mp3", wav: "pcm_s16le", pcm: "pcm_s16le", opus: "opus", flac: "flac" };

describe.skipIf(missing.length > 0).each(Object.values(audioFormats))("$name", (format) => {
  const expectedSamples = () => Math.round((pcm.length * format.outputSampleRate(sampleRate)) / sampleRate);

  it("a whole file decodes, by ffmpeg, to the speech's duration, sample rate and one channel", async () => {
    const file = path.join(dir, `whole.${format.extension}`);
    await fs.writeFile(file, await format.encode(pcm, sampleRate));
    const decoded = decode(format, file);
    expect(decoded.codec).toBe(codecs[format.name]);
    expect(decoded.channels).toBe(1);
    expect(decoded.sampleRate).toBe(format.outputSampleRate(sampleRate));
    expect(Math.abs(decoded.samples - expectedSamples())).toBeLessThanOrEqual(frameSamples[format.name]);
  });

  it("a stream pushed in several pieces decodes to the same duration as the whole file", async () => {
    const whole = path.join(dir, `whole-for-stream.${format.extension}`);
    const stream = path.join(dir, `stream.${format.extension}`);
    await fs.writeFile(whole, await format.encode(pcm, sampleRate));
    await fs.writeFile(stream, await streamed(format, 7));
    const decodedWhole = decode(format, whole);
    const decodedStream = decode(format, stream);
    expect(decodedStream.channels).toBe(1);
    expect(decodedStream.sampleRate).toBe(decodedWhole.sampleRate);
    // A streamed MP3 has no tag to tell the decoder LAME's delay (576) and padding
    // (under 2 frames) to drop; docs/formats.md says so. Every other format is exact.
    const slack = format.name === "mp3" ? 3 * frameSamples.mp3 : 0;
    expect(decodedStream.samples - decodedWhole.samples).toBeGreaterThanOrEqual(0);
    expect(decodedStream.samples - decodedWhole.samples).toBeLessThanOrEqual(slack);
  });
});

describe.skipIf(missing.length > 0)("checks by each format's own tools", () => {
  it("flac -t verifies every frame's CRC and the whole file's MD5; metaflac reads the header", async () => {
    const whole = path.join(dir, "check.flac");
    const stream = path.join(dir, "check-stream.flac");
    await fs.writeFile(whole, await audioFormats.flac.encode(pcm, sampleRate));
    await fs.writeFile(stream, await streamed(audioFormats.flac, 5));
    execFileSync("flac", ["--silent", "-t", whole, stream]);
    const info = execFileSync("metaflac", ["--show-total-samples", "--show-sample-rate", "--show-channels", "--show-md5sum", whole], {
      encoding: "utf8",
    }).split("\n");
    expect(info.slice(0, 3)).toEqual([String(pcm.length), String(sampleRate), "1"]);
    expect(info[3]).not.toBe("0".repeat(32));
    // A stream cannot know its length or MD5 when its header leaves: both stated as unknown.
    expect(execFileSync("metaflac", ["--show-total-samples", stream], { encoding: "utf8" }).trim()).toBe("0");
  });

  it("a stream once sealed (the file the service stores) states its length and MD5, as the whole file does", async () => {
    for (const format of [audioFormats.flac, audioFormats.wav]) {
      const encoder = await format.start(sampleRate);
      const bytes = Buffer.concat([encoder.push(pcm.subarray(0, 30_001)), encoder.push(pcm.subarray(30_001)), encoder.end()]);
      if (!encoder.seal) throw new Error(`${format.name} streams must be sealable`);
      expect(Buffer.compare(encoder.seal(bytes), await format.encode(pcm, sampleRate))).toBe(0);
    }
    const sealed = path.join(dir, "sealed.flac");
    const encoder = await audioFormats.flac.start(sampleRate);
    await fs.writeFile(sealed, encoder.seal?.(Buffer.concat([encoder.push(pcm), encoder.end()])) ?? new Uint8Array(0));
    execFileSync("flac", ["--silent", "-t", sealed]);
    expect(execFileSync("metaflac", ["--show-total-samples", sealed], { encoding: "utf8" }).trim()).toBe(String(pcm.length));
  });

  it("a FLAC file decodes to exactly the samples encoded", async () => {
    const file = path.join(dir, "exact.flac");
    await fs.writeFile(file, await audioFormats.flac.encode(pcm, sampleRate));
    const raw = execFileSync("flac", ["--silent", "-d", "-c", "--force-raw-format", "--endian=little", "--sign=signed", file], {
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(Buffer.compare(raw, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength))).toBe(0);
  });

  it("opusinfo finds a valid mono Ogg Opus stream of the speech's length, whole and streamed", async () => {
    const seconds = (pcm.length / sampleRate).toFixed(3);
    for (const [name, bytes] of [
      ["check.opus", await audioFormats.opus.encode(pcm, sampleRate)],
      ["check-stream.opus", await streamed(audioFormats.opus, 9)],
    ] as const) {
      const file = path.join(dir, name);
      await fs.writeFile(file, bytes);
      const result = spawnSync("opusinfo", [file], { encoding: "utf8" });
      expect(result.status).toBe(0);
      expect(result.stdout).not.toMatch(/WARNING|ERROR/);
      expect(result.stdout).toContain("Channels: 1");
      expect(result.stdout).toContain(`Original sample rate: ${sampleRate} Hz`);
      // "Playback length: 1m:04.615s": the granule positions trim the padding to the exact length.
      const length = /Playback length: (\d+)m:([\d.]+)s/.exec(result.stdout);
      expect(length).not.toBeNull();
      expect((Number(length?.[1]) * 60 + Number(length?.[2])).toFixed(3)).toBe(seconds);
    }
  });
});

describe("the resampler Opus is fed through", () => {
  function tone(hz: number, rate: number, seconds: number): Int16Array {
    const out = new Int16Array(Math.round(rate * seconds));
    for (let i = 0; i < out.length; i++) out[i] = Math.round(10_000 * Math.sin((2 * Math.PI * hz * i) / rate));
    return out;
  }

  it("turns a 22 050 Hz tone into the same tone at 48 kHz, with its error 60 dB down", () => {
    const resampler = new Resampler(22_050, opusSampleRate);
    const input = tone(1000, 22_050, 1);
    const output = Buffer.concat(
      [resampler.push(input), resampler.end()].map((part) => Buffer.from(part.buffer, part.byteOffset, part.byteLength)),
    );
    const out = new Int16Array(output.buffer, output.byteOffset, output.length / 2);
    expect(out.length).toBe(opusSampleRate);
    const ideal = tone(1000, opusSampleRate, 1);
    let signal = 0;
    let noise = 0;
    // Away from the edges, where the input's start and end are abrupt.
    for (let i = 1000; i < out.length - 1000; i++) {
      signal += (ideal[i] ?? 0) ** 2;
      noise += ((out[i] ?? 0) - (ideal[i] ?? 0)) ** 2;
    }
    expect(10 * Math.log10(signal / noise)).toBeGreaterThan(60);
  });

  it("gives the same samples whether the input comes whole or in pieces", () => {
    const input = tone(440, 44_100, 0.5);
    const whole = new Resampler(44_100, opusSampleRate);
    const expected = [...whole.push(input), ...whole.end()];
    const pieces = new Resampler(44_100, opusSampleRate);
    const got: number[] = [];
    for (let start = 0; start < input.length; start += 1001) got.push(...pieces.push(input.subarray(start, start + 1001)));
    got.push(...pieces.end());
    expect(got).toEqual(expected);
  });
});
