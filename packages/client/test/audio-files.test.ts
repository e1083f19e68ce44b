import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { audioDurationMs, Fangyan, FangyanError } from "../src/index.js";
import { toolAvailable } from "./helpers/tools.js";

/*
 * The lengths and joins ttsLong relies on, on files made by tools that share
 * no code with ours or the server's: Debian's ffmpeg and flac. A 3.3 s tone at
 * 22,050 Hz is 72,765 samples.
 */

const tools = toolAvailable("Debian's ffmpeg", "ffmpeg", ["-version"]) && toolAvailable("Debian's flac", "flac", ["--version"]);
const RATE = 22_050;
const SAMPLES = 72_765;

function tone(seconds = 3.3): Buffer {
  return execFileSync("ffmpeg", [
    "-v",
    "error",
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=440:sample_rate=${RATE}:duration=${seconds}`,
    "-f",
    "s16le",
    "-ac",
    "1",
    "-",
  ]);
}

const encode = (raw: Buffer, args: string[]) =>
  new Uint8Array(
    execFileSync("ffmpeg", ["-v", "error", "-f", "s16le", "-ar", String(RATE), "-ac", "1", "-i", "-", ...args, "-"], { input: raw }),
  );

describe.runIf(tools)("audio lengths of files the client did not write", () => {
  it("a FLAC streamed without its sample count is measured from its last frame", () => {
    // Encoded to a pipe, flac cannot go back to write the sample count: STREAMINFO says 0, as the service's stream does.
    const flac = execFileSync(
      "flac",
      [
        "--silent",
        "--force-raw-format",
        "--endian=little",
        "--sign=signed",
        "--channels=1",
        "--bps=16",
        `--sample-rate=${RATE}`,
        "-c",
        "-",
      ],
      { input: tone() },
    );
    expect(flac.readUIntBE(22, 4)).toBe(0);
    expect(audioDurationMs("flac", new Uint8Array(flac))).toBeCloseTo((SAMPLES * 1000) / RATE, 6);
    // Written to a file, flac goes back and states the count: it is read from STREAMINFO.
    const dir = mkdtempSync(path.join(os.tmpdir(), "fy-flac-"));
    try {
      const file = path.join(dir, "tone.flac");
      execFileSync(
        "flac",
        [
          "--silent",
          "--force-raw-format",
          "--endian=little",
          "--sign=signed",
          "--channels=1",
          "--bps=16",
          `--sample-rate=${RATE}`,
          "-o",
          file,
          "-",
        ],
        { input: tone() },
      );
      const stated = readFileSync(file);
      expect(stated.readUIntBE(22, 4)).toBe(SAMPLES);
      expect(audioDurationMs("flac", new Uint8Array(stated))).toBeCloseTo((SAMPLES * 1000) / RATE, 6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an Ogg Opus file is as long as its last granule less the pre-skip", () => {
    const opus = encode(tone(), ["-c:a", "libopus", "-f", "ogg"]);
    expect(audioDurationMs("opus", opus)).toBeCloseTo(3300, 0);
  });

  it("a WAV whose sizes say 'until the end' (a stream) is measured to its end", () => {
    const wav = Buffer.from(encode(tone(), ["-c:a", "pcm_s16le", "-f", "wav", "-bitexact"]));
    const streamed = Buffer.from(wav);
    const data = streamed.indexOf("data");
    streamed.writeUInt32LE(0xffff_ffff, 4);
    streamed.writeUInt32LE(0xffff_ffff, data + 4);
    expect(audioDurationMs("wav", new Uint8Array(streamed))).toBeCloseTo((SAMPLES * 1000) / RATE, 6);
    expect(audioDurationMs("wav", new Uint8Array(wav))).toBeCloseTo((SAMPLES * 1000) / RATE, 6);
  });
});

describe("ttsLong's joins, with a client that serves files of its own", () => {
  const wavOf = (samples: Int16Array, streamed: boolean): Uint8Array => {
    const out = Buffer.alloc(44 + samples.length * 2);
    out.write("RIFF", 0);
    out.writeUInt32LE(streamed ? 0xffff_ffff : 36 + samples.length * 2, 4);
    out.write("WAVEfmt ", 8);
    out.writeUInt32LE(16, 16);
    out.writeUInt16LE(1, 20);
    out.writeUInt16LE(1, 22);
    out.writeUInt32LE(RATE, 24);
    out.writeUInt32LE(RATE * 2, 28);
    out.writeUInt16LE(2, 32);
    out.writeUInt16LE(16, 34);
    out.write("data", 36);
    out.writeUInt32LE(streamed ? 0xffff_ffff : samples.length * 2, 40);
    Buffer.from(samples.buffer).copy(out, 44);
    return new Uint8Array(out);
  };
  const part = (n: number, value: number) => new Int16Array(n).fill(value);
  const files = new Map([
    ["http://audio.test/a.wav", wavOf(part(RATE, 1), true)],
    ["http://audio.test/b.wav", wavOf(part(RATE / 2, 2), false)],
  ]);
  const urls = [...files.keys()];
  const client = {
    calls: 0,
    async tts() {
      const audioUrl = urls[this.calls++] ?? "";
      const timings = { sentences: [{ text: "句。", startMs: 100, endMs: 400 }] };
      return { audioUrl, billing: { rawChars: 1, billableChars: 50, costYuan: 0.01, balanceAfterYuan: 1 }, requestId: undefined, timings };
    },
    async download(url: string) {
      return files.get(url) ?? new Uint8Array(0);
    },
    async account() {
      return { name: "", balanceYuan: 100, totalRechargeYuan: 100, totalConsumedYuan: 0, pricePerWanYuan: 2, requestId: undefined };
    },
  };

  it("WAV parts become one WAV with exact sizes, its samples end to end, and timings shifted by the first part's length", async () => {
    const { ttsLong } = await import("../src/long.js");
    const result = await ttsLong(client, { text: `${"句。".repeat(2600)}`, voiceId: "v", format: "wav", timings: true });
    const out = Buffer.from(result.audio);
    expect(out.readUInt32LE(4)).toBe(36 + RATE * 3);
    expect(out.readUInt32LE(40)).toBe(RATE * 3);
    expect(out.readInt16LE(44 + (RATE - 1) * 2)).toBe(1);
    expect(out.readInt16LE(44 + RATE * 2)).toBe(2);
    expect(result.durationMs).toBe(1500);
    expect(result.timings?.sentences.map((s) => [s.startMs, s.endMs])).toEqual([
      [100, 400],
      [1100, 1400],
    ]);
  });

  it("an Opus or FLAC text of several requests is refused before the first request", async () => {
    const refusing = new Fangyan({
      apiKey: "fy_test",
      baseUrl: "http://127.0.0.1:9/api/v1",
      fetch: () => Promise.reject(new Error("nothing may be sent")),
    });
    await expect(refusing.ttsLong({ text: "句。".repeat(2600), voiceId: "v", format: "flac" })).rejects.toThrow(FangyanError);
    await expect(refusing.ttsLong({ text: "句。".repeat(2600), voiceId: "v", format: "opus" })).rejects.toThrow(
      /Ogg Opus files cannot be joined/,
    );
  });
});
