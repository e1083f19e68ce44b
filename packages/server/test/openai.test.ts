/**
 * The OpenAI-compatible speech API, called by the official `openai` npm client
 * as any tool built on it would, and by curl as the README shows. Every
 * format is decoded by ffmpeg; every error is the client's own error class.
 */

import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { AUDIO_FORMAT_NAMES, type AudioFormatName, PCM_SAMPLE_RATE } from "@fangyan/protocol";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeWithFfmpeg, missingDecoders } from "./helpers/decode.js";
import { startTestServer, type TestServer, tempDir } from "./helpers/harness.js";
import { longText, moneyHolds } from "./helpers/money.js";
import { data } from "./helpers/spec-client.js";

let t: TestServer;
let dir: string;
beforeAll(async () => {
  t = await startTestServer();
  dir = await tempDir("fangyan-openai-");
});
afterAll(async () => {
  await t?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const openai = (apiKey: string, baseUrl = t.baseUrl) => new OpenAI({ apiKey, baseURL: `${baseUrl}/v1`, maxRetries: 0 });

const TEXT = "你好，今日天氣好好。我哋去公園散步啦！";

/** Writes audio to a file and decodes it with ffmpeg (raw PCM at the documented 24 kHz). */
async function decoded(bytes: ArrayBuffer | Uint8Array, format: AudioFormatName) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.${format}`);
  await fs.writeFile(file, new Uint8Array(bytes));
  return decodeWithFfmpeg(file, format === "pcm" ? { pcmRate: PCM_SAMPLE_RATE } : {});
}

/** The error a call fails with, for asserting on its class and fields. */
async function failure(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

const codecs: Record<AudioFormatName, string> = { mp3: "mp3", wav: "pcm_s16le", pcm: "pcm_s16le", opus: "opus", flac: "flac" };

describe.skipIf(missingDecoders.length > 0)("the official openai client, every format", () => {
  it.each(AUDIO_FORMAT_NAMES)("%s: decodes by ffmpeg to one channel of the same speech, charged as /api/v1 charges", async (format) => {
    const { apiKey, accountId } = await t.newCustomer("1");
    const response = await openai(apiKey).audio.speech.create({
      model: "tts-1",
      input: TEXT,
      voice: "yue-female-1",
      response_format: format,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-fangyan-billable-chars")).toBe("50");
    expect(response.headers.get("x-fangyan-cost-yuan")).toBe("0.01");
    expect(response.headers.get("x-fangyan-balance-after-yuan")).toBe("0.99");
    const audio = await decoded(await response.arrayBuffer(), format);
    expect(audio.codec).toBe(codecs[format]);
    expect(audio.channels).toBe(1);
    expect(audio.sampleRate).toBe({ mp3: 22_050, wav: 22_050, flac: 22_050, opus: 48_000, pcm: PCM_SAMPLE_RATE }[format]);
    // About two and a half seconds of speech, whichever format carries it.
    expect(audio.samples / audio.sampleRate).toBeGreaterThan(1.5);
    expect(audio.samples / audio.sampleRate).toBeLessThan(5);
    const { ledger } = await moneyHolds(t.store, accountId);
    expect(ledger.filter((entry) => entry.kind === "charge")).toHaveLength(1);
  });

  it("gives every format the same duration (within one Opus or MP3 frame plus the MP3 encoder's delay)", async () => {
    const { apiKey } = await t.newCustomer("1");
    const client = openai(apiKey);
    const seconds: Record<string, number> = {};
    for (const format of AUDIO_FORMAT_NAMES) {
      const response = await client.audio.speech.create({ model: "tts-1", input: TEXT, voice: "cmn-male-1", response_format: format });
      const audio = await decoded(await response.arrayBuffer(), format);
      seconds[format] = audio.samples / audio.sampleRate;
    }
    const reference = seconds.wav ?? 0;
    for (const format of AUDIO_FORMAT_NAMES) expect(Math.abs((seconds[format] ?? 0) - reference)).toBeLessThan(0.08);
  });

  it("streams a long text as it is produced: chunked, and the whole of it decodes", async () => {
    const { apiKey, accountId } = await t.newCustomer("5");
    const input = longText(1200);
    const response = await fetch(`${t.baseUrl}/v1/audio/speech`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model: "tts-1", input, voice: "cmn-female-1", response_format: "opus" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("content-type")).toBe("audio/ogg; codecs=opus");
    const streamed = await decoded(await response.arrayBuffer(), "opus");
    // 1200 characters of Mandarin: minutes of speech, not a first sentence alone.
    expect(streamed.samples / streamed.sampleRate).toBeGreaterThan(150);
    // The stored copy, at the URL in the headers, is the same audio.
    const stored = await fetch(response.headers.get("x-fangyan-audio-url") ?? "");
    expect(stored.headers.get("content-type")).toBe("audio/ogg; codecs=opus");
    const storedAudio = await decoded(await stored.arrayBuffer(), "opus");
    expect(storedAudio.samples).toBe(streamed.samples);
    const { ledger } = await moneyHolds(t.store, accountId);
    expect(ledger.find((entry) => entry.kind === "charge")).toMatchObject({ rawChars: 1200, billableChars: 1200 });
  });
});

describe.skipIf(missingDecoders.length > 0)("SSML through the compatible API", () => {
  it("reads an input that starts with <speak as SSML: a break is that much silence, billed as sent", async () => {
    const { apiKey, accountId } = await t.newCustomer("1");
    const input = '<speak>你好。<break time="1200ms"/>再见。</speak>';
    const response = await openai(apiKey).audio.speech.create({ model: "tts-1", input, voice: "cmn-female-1", response_format: "wav" });
    expect(response.headers.get("x-fangyan-raw-chars")).toBe(String([...input].length));
    const audio = await decoded(await response.arrayBuffer(), "wav");
    // The longest run of silence is the break (the engine's own pause next to it is cut).
    let longest = 0;
    let run = 0;
    for (const sample of audio.pcm) {
      run = Math.abs(sample) <= 32 ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    expect((longest * 1000) / audio.sampleRate).toBeGreaterThan(1150);
    expect((longest * 1000) / audio.sampleRate).toBeLessThan(1300);
    await moneyHolds(t.store, accountId);
  });

  it("refuses malformed SSML as a 400 on param input, charging nothing", async () => {
    const { apiKey, accountId } = await t.newCustomer("1");
    const error = await failure(
      openai(apiKey).audio.speech.create({ model: "tts-1", input: "<speak>你好<break time=800ms/></speak>", voice: "cmn-female-1" }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.param).toBe("input");
    expect((await moneyHolds(t.store, accountId)).ledger).toHaveLength(1);
  });
});

describe("the same money as /api/v1", () => {
  it("charges the same ledger rows for the same texts through either API", async () => {
    const texts = ["你好", "今日天氣好好，我哋去飲茶。".repeat(6), longText(420)];
    const envelope = await t.newCustomer("3");
    const compatible = await t.newCustomer("3");
    for (const text of texts) {
      const answer = await envelope.client.tts({ text, voice_id: "yue-male-1" });
      data(answer);
      const response = await openai(compatible.apiKey).audio.speech.create({ model: "tts-1", input: text, voice: "yue-male-1" });
      await response.arrayBuffer();
    }
    const rows = async (accountId: string) =>
      (await moneyHolds(t.store, accountId)).ledger
        .map(({ kind, amountMicro, balanceAfterMicro, rawChars, billableChars }) => ({
          kind,
          amountMicro,
          balanceAfterMicro,
          rawChars,
          billableChars,
        }))
        .reverse();
    const compatibleRows = await rows(compatible.accountId);
    expect(compatibleRows).toEqual(await rows(envelope.accountId));
    expect(compatibleRows.filter((row) => row.kind === "charge")).toHaveLength(3);
  });

  it("answers a retry with the same Idempotency-Key once: the same audio, one charge", async () => {
    const { apiKey, accountId } = await t.newCustomer("1");
    const client = openai(apiKey);
    const body = { model: "tts-1", input: "重試不應收兩次錢。", voice: "cmn-female-1", response_format: "wav" } as const;
    const first = await client.audio.speech.create(body, { headers: { "Idempotency-Key": "order-42" } });
    const again = await client.audio.speech.create(body, { headers: { "Idempotency-Key": "order-42" } });
    expect(again.headers.get("x-fangyan-audio-url")).toBe(first.headers.get("x-fangyan-audio-url"));
    expect(Buffer.compare(Buffer.from(await again.arrayBuffer()), Buffer.from(await first.arrayBuffer()))).toBe(0);
    // Concurrent copies too: the ledger's unique fingerprint lets one charge through.
    const concurrent = await Promise.all(
      [1, 2, 3].map(() => client.audio.speech.create({ ...body, input: "同時送三次。" }, { headers: { "Idempotency-Key": "order-43" } })),
    );
    expect(new Set(concurrent.map((response) => response.headers.get("x-fangyan-audio-url"))).size).toBe(1);
    const bodies = await Promise.all(concurrent.map(async (response) => Buffer.from(await response.arrayBuffer())));
    expect(bodies.every((bytes) => bytes.equals(bodies[0] ?? Buffer.alloc(0)))).toBe(true);
    // Another key is another request.
    await (await client.audio.speech.create(body, { headers: { "Idempotency-Key": "order-44" } })).arrayBuffer();
    const { ledger } = await moneyHolds(t.store, accountId);
    expect(ledger.filter((entry) => entry.kind === "charge")).toHaveLength(3);
  });

  it("lists its models and voices, with the key", async () => {
    const { apiKey } = await t.newCustomer("1");
    const client = openai(apiKey);
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toEqual(expect.arrayContaining(["tts-1", "tts-1-hd", "gpt-4o-mini-tts", "fangyan-tts"]));
    expect((await client.models.retrieve("tts-1")).id).toBe("tts-1");
    const voices = (await client.get("/audio/voices")) as { voices: Array<{ id: string; dialect_code: string }> };
    expect(voices.voices.map((voice) => voice.id)).toEqual(expect.arrayContaining(["yue-female-1", "cmn-male-1"]));
    expect(await failure(client.models.retrieve("whisper-1"))).toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe("every error, as the openai client raises it, and nothing charged", () => {
  it("401 for a wrong or missing key", async () => {
    const wrong = await failure(
      openai("fy_not-a-real-key-at-all-00000000").audio.speech.create({ model: "tts-1", input: "你好", voice: "yue-female-1" }),
    );
    expect(wrong).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(wrong.code).toBe("invalid_api_key");
    const none = await fetch(`${t.baseUrl}/v1/audio/speech`, { method: "POST", body: "{}" });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      error: { message: expect.stringContaining("Bearer"), type: "invalid_request_error", param: null, code: "invalid_api_key" },
    });
  });

  it("402 when the balance is too low", async () => {
    const { apiKey, accountId } = await t.newCustomer("0.01");
    const error = await failure(openai(apiKey).audio.speech.create({ model: "tts-1", input: longText(120), voice: "yue-female-1" }));
    expect(error.status).toBe(402);
    expect(error.code).toBe("insufficient_quota");
    expect((await moneyHolds(t.store, accountId)).ledger.filter((entry) => entry.kind === "charge")).toHaveLength(0);
  });

  it.each([
    ["an empty input", { input: "" }, "input", 400],
    ["a speed out of range", { speed: 4 }, "speed", 400],
    ["an unknown format", { response_format: "ogg" }, "response_format", 400],
    ["AAC, which is not offered", { response_format: "aac" }, "response_format", 400],
    ["an unknown model", { model: "whisper-1" }, "model", 404],
    ["an unknown voice", { voice: "alloy" }, "voice", 404],
    ["a text over 5000 characters", { input: "好".repeat(5001) }, "input", 400],
    ["server-sent events", { stream_format: "sse" }, "stream_format", 400],
    ["an input of punctuation alone", { input: "。。。！" }, "input", 400],
  ])("%s is refused with param %s", async (_what, change, param, status) => {
    const { apiKey, accountId } = await t.newCustomer("1");
    const body = { model: "tts-1", input: "你好", voice: "yue-female-1", ...change } as OpenAI.Audio.SpeechCreateParams;
    const error = await failure(openai(apiKey).audio.speech.create(body));
    expect(error.status).toBe(status);
    expect(error).toBeInstanceOf(status === 404 ? OpenAI.NotFoundError : OpenAI.BadRequestError);
    expect(error.param).toBe(param);
    expect(error.type).toBe("invalid_request_error");
    expect(error.message.length).toBeGreaterThan(10);
    expect((await moneyHolds(t.store, accountId)).ledger.filter((entry) => entry.kind === "charge")).toHaveLength(0);
  });

  it("400 for a body that is not JSON", async () => {
    const { apiKey } = await t.newCustomer("1");
    const response = await fetch(`${t.baseUrl}/v1/audio/speech`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}` },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
  });

  it("429 past the key's rate limit, with Retry-After and the RateLimit headers", async () => {
    const { apiKey } = await t.newCustomer("1");
    const client = openai(apiKey);
    for (let i = 0; i < 60; i++) await client.models.retrieve("tts-1");
    const error = await failure(client.audio.speech.create({ model: "tts-1", input: "你好", voice: "yue-female-1" }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.code).toBe("rate_limit_exceeded");
    expect(Number(error.headers?.get("retry-after"))).toBeGreaterThan(0);
    expect(error.headers?.get("ratelimit-remaining")).toBe("0");
  });
});

describe("a busy engine, the failed-key limit and the operator's switch", () => {
  let busy: TestServer;
  beforeAll(async () => {
    busy = await startTestServer({ FANGYAN_SYNTHESIS_THREADS: "1", FANGYAN_SYNTHESIS_QUEUE: "1", FANGYAN_SYNTHESIS_WAIT_MS: "0" });
  });
  afterAll(() => busy?.close());

  it("503 engine_overloaded when no thread or queue place is free, charged only for the audio given", async () => {
    const { apiKey, accountId } = await busy.newCustomer("5");
    const client = openai(apiKey, busy.baseUrl);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        client.audio.speech.create({ model: "tts-1", input: `第${i}句：${longText(150)}`, voice: "cmn-female-1" }),
      ),
    );
    const refused = results.flatMap((result) =>
      result.status === "rejected" ? [result.reason as InstanceType<typeof OpenAI.APIError>] : [],
    );
    for (const result of results)
      if (result.status === "fulfilled") expect((await result.value.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect(refused.length).toBeGreaterThan(0);
    for (const error of refused) {
      expect(error.status).toBe(503);
      expect(error.code).toBe("engine_overloaded");
      expect(Number(error.headers?.get("retry-after"))).toBeGreaterThan(0);
    }
    const { ledger } = await moneyHolds(busy.store, accountId);
    expect(ledger.filter((entry) => entry.kind === "charge")).toHaveLength(8 - refused.length);
  });

  it("limits failed keys per address, shared with /api/v1", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const response = await fetch(`${busy.baseUrl}/v1/models`, { headers: { Authorization: `Bearer fy_guess${i}` } });
      await response.body?.cancel();
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    const envelope = await fetch(`${busy.baseUrl}/api/v1/account`, { headers: { "X-API-Key": "fy_guess-again" } });
    await envelope.body?.cancel();
    expect(envelope.status).toBe(429);
  });

  it("is off, as if absent, when the operator sets FANGYAN_OPENAI_API=0", async () => {
    const off = await startTestServer({ FANGYAN_OPENAI_API: "0" });
    try {
      const { apiKey, accountId } = await off.newCustomer("1");
      const response = await fetch(`${off.baseUrl}/v1/audio/speech`, {
        method: "POST",
        headers: { Authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ model: "tts-1", input: "你好", voice: "yue-female-1" }),
      });
      await response.body?.cancel();
      expect(response.status).toBe(404);
      // Only the recharge: nothing was charged.
      expect((await moneyHolds(off.store, accountId)).ledger).toHaveLength(1);
    } finally {
      await off.close();
    }
  });
});

describe("the README's examples, run as written", () => {
  const readme = () => fs.readFile(new URL("../../../README.md", import.meta.url), "utf8");
  const blocks = (markdown: string, language: string) =>
    [...markdown.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g"))].map((match) => match[1] ?? "");
  const local = (code: string) => code.replaceAll("http://127.0.0.1:8080", t.baseUrl);
  // Asynchronously: the server answering them runs in this process.
  const run = promisify(execFile);

  it.skipIf(missingDecoders.length > 0)("the curl one-liner saves a playable MP3 and charges 0.01 yuan", async () => {
    const curl = blocks(await readme(), "sh").find((block) => block.includes("/v1/audio/speech"));
    if (!curl) throw new Error("the README has no curl example of /v1/audio/speech");
    const { apiKey, accountId } = await t.newCustomer("1");
    const cwd = await tempDir("fangyan-readme-curl-");
    try {
      await run("bash", ["-euo", "pipefail", "-c", local(curl)], { cwd, env: { ...process.env, FANGYAN_API_KEY: apiKey } });
      const audio = decodeWithFfmpeg(path.join(cwd, "hi.mp3"));
      expect(audio).toMatchObject({ codec: "mp3", channels: 1 });
      expect(audio.samples / audio.sampleRate).toBeGreaterThan(0.3);
    } finally {
      await fs.rm(cwd, { recursive: true, force: true });
    }
    const { ledger } = await moneyHolds(t.store, accountId);
    expect(ledger.find((entry) => entry.kind === "charge")).toMatchObject({ amountMicro: -10_000, billableChars: 50 });
  });

  it.skipIf(missingDecoders.length > 0)("the OpenAI SDK snippet saves a WAV", async () => {
    const snippet = blocks(await readme(), "js").find((block) => block.includes('from "openai"'));
    if (!snippet) throw new Error("the README has no OpenAI SDK example");
    const { apiKey } = await t.newCustomer("1");
    // Inside the repository, so that `import "openai"` resolves to the dev dependency.
    const cwd = await fs.mkdtemp(path.join(fileURLToPath(new URL(".", import.meta.url)), ".readme-"));
    try {
      await fs.writeFile(path.join(cwd, "snippet.mjs"), local(snippet));
      await run(process.execPath, ["snippet.mjs"], { cwd, env: { ...process.env, FANGYAN_API_KEY: apiKey } });
      expect(decodeWithFfmpeg(path.join(cwd, "hi.wav"))).toMatchObject({ codec: "pcm_s16le", channels: 1, sampleRate: 22_050 });
    } finally {
      await fs.rm(cwd, { recursive: true, force: true });
    }
  });
});
