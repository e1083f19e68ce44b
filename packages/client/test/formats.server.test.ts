import { execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Fangyan, FangyanError, PCM_SAMPLE_RATE } from "../src/index.js";
import { FY_BIN, type RealServer, run, startRealServer } from "./helpers/server.js";
import { toolAvailable } from "./helpers/tools.js";

/*
 * Audio formats from the client's side, against the real server: the SDK's
 * `format`, ttsLong's joins, and `fy say -o out.<ext>`. Every file is checked
 * by Debian's ffmpeg/ffprobe and flac, which share no code with ours.
 */

const decoders =
  toolAvailable("Debian's ffmpeg", "ffmpeg", ["-version"]) &&
  toolAvailable("Debian's ffprobe", "ffprobe", ["-version"]) &&
  toolAvailable("Debian's flac", "flac", ["--version"]);

const SENTENCE = "今天天气很好，我们去公园散步吧。"; // 16 characters

let server: RealServer;
let scratch: string;
beforeAll(async () => {
  server = await startRealServer();
  scratch = await mkdtemp(path.join(os.tmpdir(), "fy-formats-"));
});
afterAll(async () => {
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function user(recharge = "10") {
  const customer = await server.customer(recharge);
  const cwd = await mkdtemp(path.join(scratch, "user-"));
  const env = { FANGYAN_API_KEY: customer.apiKey, FANGYAN_BASE_URL: server.baseUrl };
  return {
    cwd,
    sdk: new Fangyan({ apiKey: customer.apiKey, baseUrl: server.baseUrl }),
    fy: (args: string[]) => run([FY_BIN, ...args], env, { cwd }),
  };
}

interface Probe {
  codec: string;
  sampleRate: number;
  /** Samples of the one channel, as ffmpeg decodes the whole file. */
  pcm: Int16Array;
}

/** A file as ffprobe and ffmpeg see it; raw PCM is described to them (s16le, mono, 24 kHz). */
function decode(file: string): Probe {
  const input = file.endsWith(".pcm") ? ["-f", "s16le", "-ar", String(PCM_SAMPLE_RATE), "-ch_layout", "mono", "-i", file] : ["-i", file];
  const probe = JSON.parse(
    execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels", "-of", "json", ...input], {
      encoding: "utf8",
    }),
  ) as { streams: { codec_name: string; sample_rate: string; channels: number }[] };
  expect(probe.streams).toHaveLength(1);
  expect(probe.streams[0]?.channels).toBe(1);
  const raw = execFileSync("ffmpeg", ["-v", "error", ...input, "-f", "s16le", "-"], { maxBuffer: 256 * 1024 * 1024 });
  return {
    codec: probe.streams[0]?.codec_name ?? "",
    sampleRate: Number(probe.streams[0]?.sample_rate),
    pcm: new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length - (raw.length % 2))),
  };
}

async function saved(bytes: Uint8Array, name: string): Promise<string> {
  const file = path.join(scratch, `${Date.now()}-${Math.random().toString(36).slice(2)}-${name}`);
  await writeFile(file, bytes);
  return file;
}

describe.runIf(decoders)("audio formats in the SDK", () => {
  it('tts({ format: "wav" }) answers a .wav URL whose file is a RIFF WAV of the speech, at the same price', async () => {
    const { sdk } = await user();
    const result = await sdk.tts({ text: "你好，世界", voiceId: "cmn-female-1", format: "wav" });
    expect(result.audioUrl).toMatch(/\/audio\/[A-Za-z0-9_-]{22}\.wav$/);
    expect(result.billing).toMatchObject({ rawChars: 5, billableChars: 50, costYuan: 0.01 });
    const wav = await sdk.download(result.audioUrl);
    expect(new TextDecoder().decode(wav.subarray(0, 4))).toBe("RIFF");
    expect(new TextDecoder().decode(wav.subarray(8, 12))).toBe("WAVE");
    const audio = decode(await saved(wav, "hi.wav"));
    expect(audio).toMatchObject({ codec: "pcm_s16le", sampleRate: 22_050 });
    expect(audio.pcm.length / audio.sampleRate).toBeGreaterThan(0.5);
  });

  it("ttsLong in wav joins the parts into one WAV whose samples are exactly the parts', with every sentence where it is heard", async () => {
    const { sdk } = await user();
    const long = await sdk.ttsLong({ text: SENTENCE.repeat(320), voiceId: "cmn-female-1", format: "wav", timings: true });
    expect(long.format).toBe("wav");
    expect(long.parts.map((part) => part.chars)).toEqual([4992, 128]);
    expect(long.parts.every((part) => part.audioUrl.endsWith(".wav"))).toBe(true);

    const joined = decode(await saved(long.audio, "long.wav"));
    expect(joined).toMatchObject({ codec: "pcm_s16le", sampleRate: 22_050 });
    const parts = await Promise.all(
      long.parts.map(async (part, i) => decode(await saved(await sdk.download(part.audioUrl), `part${i}.wav`))),
    );
    // Samples laid end to end: the joined file is the parts, sample for sample.
    expect(joined.pcm.length).toBe(parts.reduce((sum, part) => sum + part.pcm.length, 0));
    // Compared as buffers: minutes of audio are too many samples for toEqual's element-wise diff.
    const [first, second] = parts;
    const secondHalf = Buffer.from(joined.pcm.buffer).subarray(first ? first.pcm.length * 2 : 0);
    expect(secondHalf.equals(Buffer.from(second?.pcm.buffer ?? new ArrayBuffer(0)))).toBe(true);
    expect(long.durationMs).toBeCloseTo((joined.pcm.length * 1000) / 22_050, 6);
    expect(long.audio).toBe(long.mp3);

    // Every sentence, also those of the second part, starts and ends where the decoded audio has sound.
    const sentences = long.timings?.sentences ?? [];
    expect(sentences).toHaveLength(320);
    const at = (ms: number) => Math.round((ms * 22_050) / 1000);
    sentences.forEach((sentence, i) => {
      const from = i > 0 ? at(((sentences[i - 1]?.endMs ?? 0) + sentence.startMs) / 2) : 0;
      const to = i < sentences.length - 1 ? at((sentence.endMs + (sentences[i + 1]?.startMs ?? 0)) / 2) : joined.pcm.length;
      let onset = from;
      while (onset < to && Math.abs(joined.pcm[onset] ?? 0) <= 200) onset++;
      let end = to - 1;
      while (end > onset && Math.abs(joined.pcm[end] ?? 0) <= 200) end--;
      expect(Math.abs((onset * 1000) / 22_050 - sentence.startMs)).toBeLessThanOrEqual(5);
      expect(Math.abs(((end + 1) * 1000) / 22_050 - sentence.endMs)).toBeLessThanOrEqual(5);
    });
  }, 180_000);

  it("ttsLong in pcm gives the parts' bytes end to end, at 24 kHz", async () => {
    const { sdk } = await user();
    const long = await sdk.ttsLong({ text: SENTENCE.repeat(320), voiceId: "cmn-female-1", format: "pcm" });
    const parts = await Promise.all(long.parts.map((part) => sdk.download(part.audioUrl)));
    expect(Buffer.from(long.audio).equals(Buffer.concat(parts))).toBe(true);
    expect(long.durationMs).toBeCloseTo((long.audio.length / 2 / PCM_SAMPLE_RATE) * 1000, 6);
    const decoded = decode(await saved(long.audio, "long.pcm"));
    expect(decoded.pcm.length).toBe(long.audio.length / 2);
  }, 120_000);

  it.each(["opus", "flac"] as const)("ttsLong refuses a %s text of several requests before anything is charged", async (format) => {
    const { sdk } = await user();
    const before = await sdk.account();
    const refused = sdk.ttsLong({ text: SENTENCE.repeat(320), voiceId: "cmn-female-1", format });
    await expect(refused).rejects.toThrow(FangyanError);
    await expect(refused).rejects.toThrow(/needs 2 requests, .* cannot be joined .*; ask for wav .*call tts for each part/);
    expect((await sdk.account()).balanceYuan).toBe(before.balanceYuan);
  });

  it.each([
    ["opus", "opus", 48_000],
    ["flac", "flac", 22_050],
  ] as const)("ttsLong of a %s text that fits one request is the service's file, with its duration", async (format, codec, rate) => {
    const { sdk } = await user();
    const long = await sdk.ttsLong({ text: SENTENCE.repeat(3), voiceId: "cmn-female-1", format });
    const decoded = decode(await saved(long.audio, `one.${format}`));
    expect(decoded).toMatchObject({ codec, sampleRate: rate });
    // Opus is measured by its last page's granule, FLAC by its sample count: the decoder agrees.
    expect(Math.abs(long.durationMs - (decoded.pcm.length * 1000) / rate)).toBeLessThanOrEqual(1);
  });
});

describe.runIf(decoders)("fy say picks the format from the file name", () => {
  it("-o out.flac writes a FLAC that flac -t verifies, and says so", async () => {
    const { fy, cwd } = await user();
    const done = await fy(["say", "你好，世界", "-v", "cmn-female-1", "-o", "out.FLAC", "--json"]);
    expect(done.stderr).toBe("");
    expect(done.code).toBe(0);
    const json = JSON.parse(done.stdout) as { format: string; file: string; bytes: number; duration_ms: number };
    expect(json).toMatchObject({ format: "flac", file: path.join(cwd, "out.FLAC") });
    const file = path.join(cwd, "out.FLAC");
    expect(spawnSync("flac", ["-t", "--silent", file]).status).toBe(0);
    const decoded = decode(file);
    expect(decoded.codec).toBe("flac");
    expect(decoded.pcm.length).toBeGreaterThan(0);
    expect(json.duration_ms).toBeCloseTo((decoded.pcm.length * 1000) / decoded.sampleRate, 3);
  });

  it("--format names the format whatever the file is called, and names the file without -o", async () => {
    const { fy, cwd } = await user();
    const named = await fy(["say", "早晨", "-v", "yue-female-1", "--format", "opus"]);
    expect(named.code).toBe(0);
    expect(named.stdout).toMatch(/^Saved 早晨\.opus: /);
    expect(decode(path.join(cwd, "早晨.opus")).codec).toBe("opus");
    const forced = await fy(["say", "早晨", "-v", "yue-female-1", "-o", "speech.bin", "--format", "wav"]);
    expect(forced.code).toBe(0);
    expect(decode(path.join(cwd, "speech.bin")).codec).toBe("pcm_s16le");
    const raw = await fy(["say", "早晨", "-v", "yue-female-1", "-o", "speech.pcm"]);
    expect(raw.stdout).toContain("(raw PCM: signed 16-bit little-endian, mono, 24,000 Hz)");
    expect((await readFile(path.join(cwd, "speech.pcm"))).length % 2).toBe(0);
  });

  it("-o out.xyz, an unknown --format, or a long text as one Opus file are usage errors (exit 2), and nothing is sent", async () => {
    const { fy, cwd, sdk } = await user();
    const unknown = await fy(["say", "你好", "-v", "cmn-female-1", "-o", "out.xyz"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'fy: fy cannot tell the format of "out.xyz": name the file .mp3 .wav .pcm .opus .flac (the extension picks the format), or give --format mp3|wav|pcm|opus|flac\n',
    );
    const badFlag = await fy(["say", "你好", "-v", "cmn-female-1", "--format", "aac"]);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toBe('fy: --format takes one of mp3, wav, pcm, opus, flac; got "aac"\n');
    await writeFile(path.join(cwd, "long.txt"), SENTENCE.repeat(320));
    const long = await fy(["say", "--file", "long.txt", "-v", "cmn-female-1", "-o", "long.opus"]);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(
      /^fy: This text needs 2 requests, and their Ogg Opus files cannot be joined .*; write a \.wav file instead/,
    );
    expect((await readdir(cwd)).sort()).toEqual(["long.txt"]);
    expect((await sdk.account()).totalConsumedYuan).toBe(0);
  });

  it("--srt and --vtt still come with a WAV", async () => {
    const { fy, cwd } = await user();
    const done = await fy([
      "say",
      "你好，世界。今天天气很好！",
      "-v",
      "cmn-female-1",
      "-o",
      "hi.wav",
      "--srt",
      "hi.srt",
      "--vtt",
      "hi.vtt",
    ]);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^Saved hi\.wav: /);
    expect(await readFile(path.join(cwd, "hi.srt"), "utf8")).toMatch(/^1\n00:00:00,\d{3} --> 00:00:0\d,\d{3}\n你好，世界。\n\n2\n/);
    expect(await readFile(path.join(cwd, "hi.vtt"), "utf8")).toMatch(/^WEBVTT\n\n1\n/);
    expect(decode(path.join(cwd, "hi.wav")).codec).toBe("pcm_s16le");
  });
});
