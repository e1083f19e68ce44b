import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describeMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Fangyan } from "../src/index.js";
import { FY_BIN, freePort, type RealServer, run, startRealServer } from "./helpers/server.js";
import { toolAvailable } from "./helpers/tools.js";

const lameInstalled = toolAvailable("Debian's lame decoder", "lame", ["--version"]);

/*
 * `fy` as a user runs it: the built bin in a child process, against the real
 * server, in a scratch folder, with the key in FANGYAN_API_KEY.
 */

const SENTENCE = "今天天气很好，我们去公园散步吧。"; // 16 characters

let server: RealServer;
let scratch: string;
beforeAll(async () => {
  server = await startRealServer();
  scratch = await mkdtemp(path.join(os.tmpdir(), "fy-cli-"));
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
    ...customer,
    cwd,
    sdk: new Fangyan({ apiKey: customer.apiKey, baseUrl: server.baseUrl }),
    fy: (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
      run([FY_BIN, ...args], { ...env, ...options.env }, { cwd, ...(options.input === undefined ? {} : { input: options.input }) }),
  };
}

interface SayJson {
  file: string;
  bytes: number;
  duration_ms: number;
  raw_chars: number;
  billable_chars: number;
  cost_yuan: number;
  balance_after_yuan: number;
  parts: Array<{
    chars: number;
    audio_url: string;
    duration_ms: number;
    bytes: number;
    billing: { billable_chars: number; cost_yuan: number };
  }>;
}

const FRAME_MS = (576 * 1000) / 22050;

describe("fy say", () => {
  it("writes a playable MP3 and prints what it cost", async () => {
    const { fy, cwd } = await user();
    const done = await fy(["say", "你好，世界", "-v", "cmn-female-1", "-o", "hi.mp3"]);
    expect(done.stderr).toBe("");
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/^Saved hi\.mp3: \d+\.\d s of speech, [\d.]+ KB\n/);
    expect(done.stdout).toContain("Cost 0.01 yuan for 5 characters (billed as 50); balance 9.99 yuan\n");
    const info = describeMp3(await readFile(path.join(cwd, "hi.mp3")));
    expect(info).toMatchObject({ sampleRate: 22050, hasXingHeader: true });
    expect(info.durationMs).toBeGreaterThan(500);
  });

  it("without -o names the file after the text, and never overwrites an earlier one", async () => {
    const { fy, cwd } = await user();
    expect((await fy(["say", "早晨！食咗飯未呀？", "-v", "yue-female-1"])).code).toBe(0);
    const again = await fy(["say", "早晨！食咗飯未呀？", "-v", "yue-female-1"]);
    expect(again.stdout).toMatch(/^Saved 早晨-食咗飯未呀-2\.mp3/);
    expect((await readdir(cwd)).sort()).toEqual(["早晨-食咗飯未呀-2.mp3", "早晨-食咗飯未呀.mp3"]);
  });

  it("reads the text from standard input or from --file, and --json prints one object", async () => {
    const { fy, cwd } = await user();
    const piped = await fy(["say", "-v", "cmn-male-1", "--json", "-o", "piped.mp3"], { input: "  从管道读入。\n" });
    expect(piped.code).toBe(0);
    const result = JSON.parse(piped.stdout) as SayJson;
    expect(result).toMatchObject({ file: path.join(cwd, "piped.mp3"), raw_chars: 6, billable_chars: 50, cost_yuan: 0.01 });
    expect(result.parts).toHaveLength(1);

    await writeFile(path.join(cwd, "in.txt"), "\uFEFF从文件读入。\n");
    const fromFile = JSON.parse((await fy(["say", "--file", "in.txt", "-v", "cmn-male-1", "--json", "-o", "file.mp3"])).stdout) as SayJson;
    expect(fromFile).toMatchObject({ raw_chars: 6, balance_after_yuan: 9.98 });
    expect(describeMp3(await readFile(path.join(cwd, "file.mp3"))).durationMs).toBeCloseTo(fromFile.duration_ms, 6);
  });

  it("12,000 characters become one MP3 whose duration is the sum of its parts, charged the sum of its parts", async () => {
    const { fy, cwd, sdk } = await user();
    const text = SENTENCE.repeat(750);
    await writeFile(path.join(cwd, "long.txt"), text);
    const done = await fy(["say", "--file", "long.txt", "-v", "cmn-female-1", "-o", "out.mp3", "--json"]);
    expect(done.stderr).toBe("");
    expect(done.code).toBe(0);
    const result = JSON.parse(done.stdout) as SayJson;

    // Three requests, each at most 5000 characters and ending at a sentence.
    expect(result.parts.map((part) => part.chars)).toEqual([4992, 4992, 2016]);
    expect(result.raw_chars).toBe(12_000);

    // One file, one header, the full duration: checked against the parts as the service serves them.
    const mp3 = await readFile(path.join(cwd, "out.mp3"));
    const joined = describeMp3(mp3);
    const parts = await Promise.all(result.parts.map(async (part) => describeMp3(await sdk.download(part.audio_url))));
    const sum = parts.reduce((total, part) => total + part.durationMs, 0);
    expect(Math.abs(joined.durationMs - sum)).toBeLessThanOrEqual(FRAME_MS * parts.length);
    expect(joined.durationMs).toBeCloseTo(result.duration_ms, 6);
    expect(joined).toMatchObject({ xingKind: "Info", xingFrames: joined.frames, xingBytes: mp3.length, id3Bytes: 0 });
    expect(result.bytes).toBe(mp3.length);

    // Charged exactly the sum of the parts' own billing, each rounded up to 50.
    expect(result.parts.map((part) => part.billing.billable_chars)).toEqual([5000, 5000, 2050]);
    expect(result.billable_chars).toBe(12_050);
    expect(result.cost_yuan).toBe(2.41);
    const account = await sdk.account();
    expect(account.totalConsumedYuan).toBe(2.41);
    expect(account.balanceYuan).toBe(result.balance_after_yuan);

    // A real decoder plays it to the end, where one is installed (always with CI=true).
    if (lameInstalled) {
      const decoded = spawnSync("lame", ["--decode", "--quiet", path.join(cwd, "out.mp3"), path.join(cwd, "out.wav")]);
      expect(decoded.status).toBe(0);
    }
  }, 120_000);

  it("--srt and --vtt write the service's subtitle files beside the MP3", async () => {
    const { fy, cwd } = await user();
    const done = await fy([
      "say",
      "你好，世界。今天天气很好！",
      "-v",
      "cmn-female-1",
      "-o",
      "hi.mp3",
      "--srt",
      "hi.srt",
      "--vtt",
      "hi.vtt",
    ]);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain("Saved hi.mp3:");
    expect(done.stdout).toContain(`Saved ${path.join(cwd, "hi.srt")}: 2 subtitles, one a sentence\n`);
    const json = JSON.parse((await fy(["say", "再见。", "-v", "cmn-female-1", "-o", "bye.mp3", "--srt", "bye.srt", "--json"])).stdout) as {
      parts: Array<{ subtitles: { srt: string } }>;
      subtitles: { srt: string };
    };
    const served = await (await fetch(json.parts[0]?.subtitles.srt ?? "")).text();
    expect(await readFile(json.subtitles.srt, "utf8")).toBe(served);
    expect(await readFile(path.join(cwd, "hi.srt"), "utf8")).toMatch(/^1\n00:00:00,\d{3} --> 00:00:0\d,\d{3}\n你好，世界。\n\n2\n/);
    expect(await readFile(path.join(cwd, "hi.vtt"), "utf8")).toMatch(/^WEBVTT\n\n1\n00:00:00\.\d{3} --> /);
  });

  it.runIf(lameInstalled)(
    "subtitles of a text split into two requests follow the joined MP3, within one frame",
    async () => {
      const { fy, cwd } = await user();
      await writeFile(path.join(cwd, "long.txt"), SENTENCE.repeat(320));
      const done = await fy(["say", "--file", "long.txt", "-v", "cmn-female-1", "-o", "long.mp3", "--srt", "long.srt", "--json"]);
      expect(done.code).toBe(0);
      expect((JSON.parse(done.stdout) as SayJson).parts.map((part) => part.chars)).toEqual([4992, 128]);
      const cues = (await readFile(path.join(cwd, "long.srt"), "utf8"))
        .trim()
        .split("\n\n")
        .map((block) => {
          const [, times = ""] = block.split("\n");
          const [start = 0, end = 0] = times.split(" --> ").map((clock) => {
            const [h = 0, m = 0, s = 0, ms = 0] = clock.split(/[:,]/).map(Number);
            return ((h * 60 + m) * 60 + s) * 1000 + ms;
          });
          return { start, end };
        });
      expect(cues).toHaveLength(320);
      const decoded = spawnSync("lame", ["--decode", "--quiet", path.join(cwd, "long.mp3"), path.join(cwd, "long.wav")]);
      expect(decoded.status).toBe(0);
      const wav = await readFile(path.join(cwd, "long.wav"));
      const pcm = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length - (wav.length % 2)));
      const at = (ms: number) => Math.round((ms * 22050) / 1000);
      // Where sound begins and ends between the middles of the pauses around each cue, in the decoded audio.
      cues.forEach((cue, i) => {
        const from = i > 0 ? at(((cues[i - 1]?.end ?? 0) + cue.start) / 2) : 0;
        const to = i < cues.length - 1 ? at((cue.end + (cues[i + 1]?.start ?? 0)) / 2) : pcm.length;
        let first = from;
        while (first < to && Math.abs(pcm[first] ?? 0) <= 200) first++;
        let last = to - 1;
        while (last > first && Math.abs(pcm[last] ?? 0) <= 200) last--;
        expect(Math.abs((first * 1000) / 22050 - cue.start)).toBeLessThanOrEqual(FRAME_MS);
        expect(Math.abs(((last + 1) * 1000) / 22050 - cue.end)).toBeLessThanOrEqual(FRAME_MS);
      });
    },
    120_000,
  );

  it("a run stopped part-way says which parts were already charged, and writes no file", async () => {
    const { fy, cwd, accountId } = await user();
    // account check + first part fit in the limit; the second part is refused.
    await server.setRateLimit(accountId, 2);
    await writeFile(path.join(cwd, "two.txt"), SENTENCE.repeat(313));
    const done = await fy(["say", "--file", "two.txt", "-v", "cmn-female-1", "-o", "two.mp3", "--max-retries", "0"]);
    expect(done.code).toBe(5);
    expect(done.stderr).toMatch(
      /^fy: Rate limit reached \(2 requests a minute\); try again in \d+ s \[req_[\w-]+\]; 1 of 2 parts were already made and charged 1 yuan; no file was written\n$/,
    );
    expect(await readdir(cwd)).toEqual(["two.txt"]);
  }, 60_000);
});

describe("fy voices and fy account", () => {
  it("voices prints the voices grouped by dialect, and --json the groups", async () => {
    const { fy } = await user();
    const table = await fy(["voices"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^普通话 \(cmn\)\n {2}cmn-female-1 {2}\S/m);
    expect(table.stdout).toMatch(/^粤语 \(yue\)\n {2}yue-female-1 /m);
    const json = JSON.parse((await fy(["voices", "--json"])).stdout) as {
      voices: Record<string, Array<{ id: string; dialect_code: string }>>;
    };
    expect(json.voices.粤语).toContainEqual(expect.objectContaining({ id: "yue-male-1", dialect_code: "yue" }));
  });

  it("account prints balance, price and tier, and totals; --json the numbers", async () => {
    const { fy } = await user("600");
    const text = await fy(["account"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("Balance    600 yuan (about 3,157,850 characters at this price)");
    expect(text.stdout).toContain(
      "Price      1.9 yuan per 10,000 characters (tier from 500 yuan recharged; 1.75 yuan once 2000 yuan has been recharged in total)",
    );
    expect(text.stdout).toContain("Recharged  600 yuan in total");
    const json = JSON.parse((await fy(["account", "--json"])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      name: "客户",
      balance_yuan: 600,
      total_recharge_yuan: 600,
      total_consumed_yuan: 0,
      price_per_wan_yuan: 1.9,
      tier: { from_total_recharge_yuan: 500, price_per_wan_yuan: 1.9 },
      next_tier: { from_total_recharge_yuan: 2000, price_per_wan_yuan: 1.75 },
    });
  });
});

describe("fy errors: one line each, and an exit code per kind", () => {
  it.each([
    ["no text", ["say", "-v", "cmn-female-1"], 2, /^fy: No text to speak: give it as an argument/],
    ["no voice", ["say", "你好"], 2, /Choose a voice with -v/],
    ["an unknown option", ["say", "你好", "-v", "x", "--loud"], 2, /Unknown option --loud; see `fy say --help`/],
    ["a speed that is not a number", ["say", "你好", "-v", "x", "--speed", "fast"], 2, /--speed takes a number/],
    ["an unknown command", ["speak"], 2, /Unknown command "speak"/],
    ["an unknown voice", ["say", "你好", "-v", "klingon-1"], 7, /There is no voice "klingon-1"; `fy voices` lists the voices \[req_/],
    ["a speed out of range", ["say", "你好", "-v", "cmn-female-1", "--speed", "5"], 6, /^fy: Speed must be a number from 0\.5 to 2 \[req_/],
  ])("%s", async (_name, args, code, message) => {
    const { fy } = await user();
    const done = await fy(args);
    expect(done.code).toBe(code);
    expect(done.stdout).toBe("");
    expect(done.stderr).toMatch(message);
    expect(done.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("a balance too low: exit 4, in yuan", async () => {
    const { fy } = await user("0.01");
    const done = await fy(["say", "好".repeat(51), "-v", "cmn-female-1"]);
    expect(done.code).toBe(4);
    expect(done.stderr).toMatch(/^fy: Balance 0\.01 yuan is short of the 0\.02 yuan this text costs; recharge first \[req_[\w-]+\]\n$/);
  });

  it("no key, or a refused key: exit 3", async () => {
    const { fy } = await user();
    const none = await fy(["account"], { env: { FANGYAN_API_KEY: "" } });
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/^fy: FANGYAN_API_KEY is not set/);
    const wrong = await fy(["account"], { env: { FANGYAN_API_KEY: "fy_not_issued" } });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/API key was refused/);
  });

  it("a rate limit: exit 5, saying when to try again", async () => {
    const { fy, accountId } = await user();
    await server.setRateLimit(accountId, 1);
    expect((await fy(["account"])).code).toBe(0);
    const done = await fy(["account", "--max-retries", "0"]);
    expect(done.code).toBe(5);
    expect(done.stderr).toMatch(/^fy: Rate limit reached \(1 request a minute\); try again in \d+ s/);
  });

  it("a service that is not running: exit 8, naming the address", async () => {
    const { fy } = await user();
    const port = await freePort();
    const done = await fy(["voices", "--max-retries", "0", "--base-url", `http://127.0.0.1:${port}/api/v1`]);
    expect(done.code).toBe(8);
    expect(done.stderr).toContain(`Cannot reach http://127.0.0.1:${port}: ECONNREFUSED`);
  });

  it("with --json the error is one JSON object on standard output", async () => {
    const { fy } = await user("0");
    const done = await fy(["say", "你好", "-v", "cmn-female-1", "--json"]);
    expect(done.code).toBe(4);
    expect(done.stderr).toBe("");
    expect(JSON.parse(done.stdout)).toEqual({
      error: {
        type: "InsufficientBalanceError",
        code: "INSUFFICIENT_BALANCE",
        status: 402,
        message: expect.stringContaining("Balance 0 yuan is short of the 0.01 yuan"),
        details: { required_cents: 1, available_cents: 0 },
        request_id: expect.stringMatching(/^req_/),
        exit_code: 4,
      },
    });
  });
});

describe("fy help", () => {
  it("fy --help shows the commands, examples and the exit codes", async () => {
    const done = await run([FY_BIN, "--help"], {});
    expect(done.code).toBe(0);
    for (const text of [
      "fy say [TEXT] -v VOICE",
      "fy voices",
      "fy account",
      "Examples",
      'fy say "你好，世界" -v cmn-female-1 -o hi.mp3',
      "Exit codes",
      "4 balance too low",
    ]) {
      expect(done.stdout).toContain(text);
    }
  });

  it("each command has its own help, and --version the version", async () => {
    expect((await run([FY_BIN, "say", "--help"], {})).stdout).toContain("--speed N");
    expect((await run([FY_BIN, "account", "-h"], {})).stdout).toContain("fy account: show the account");
    expect((await run([FY_BIN, "--version"], {})).stdout).toMatch(/^fy \d+\.\d+\.\d+\n$/);
  });
});
