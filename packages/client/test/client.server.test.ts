import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { describeMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AudioDownloadError,
  AuthError,
  DecryptionFailedError,
  estimateCost,
  Fangyan,
  type Fetch,
  InsufficientBalanceError,
  InvalidApiKeyError,
  MissingApiKeyError,
  MissingParameterError,
  RateLimitError,
  TextTooLongError,
  TtsFailedError,
  UnexpectedResponseError,
} from "../src/index.js";
import { downloadToFile, ttsToFile } from "../src/node.js";
import { freePort, type RealServer, startRealServer } from "./helpers/server.js";

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer();
});
afterAll(() => server?.close());

async function clientFor(recharge = "10", options: { fetch?: Fetch; maxRetries?: number } = {}) {
  const customer = await server.customer(recharge);
  return { ...customer, fy: new Fangyan({ apiKey: customer.apiKey, baseUrl: server.baseUrl, ...options }) };
}

/** Runs `work` and returns what it threw. */
async function failure(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure, but it succeeded");
}

const requestId = expect.stringMatching(/^req_/);

describe("the SDK against the real server", () => {
  it("tts charges exactly what estimateCost says, and download gives a playable MP3", async () => {
    const { fy } = await clientFor();
    const { pricePerWanYuan } = await fy.account();
    const result = await fy.tts({ text: "你好，世界", voiceId: "cmn-female-1" });
    expect(result).toEqual({
      audioUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/audio\/[A-Za-z0-9_-]{22}\.mp3$/),
      billing: { rawChars: 5, billableChars: 50, costYuan: 0.01, balanceAfterYuan: 9.99 },
      requestId,
    });
    expect(estimateCost("你好，世界", pricePerWanYuan)).toBe(result.billing.costYuan);

    const mp3 = await fy.download(result.audioUrl);
    const info = describeMp3(mp3);
    expect(info).toMatchObject({ sampleRate: 22050, channels: 1, hasXingHeader: true, xingBytes: mp3.length });
    expect(info.durationMs).toBeGreaterThan(500);
  });

  it("tts with timings gives every sentence's place in the audio and the subtitle files, at the same price", async () => {
    const { fy } = await clientFor();
    const result = await fy.tts({ text: "你好，世界。今天天气很好！", voiceId: "cmn-female-1", timings: true });
    expect(result.billing).toEqual({ rawChars: 13, billableChars: 50, costYuan: 0.01, balanceAfterYuan: 9.99 });
    const sentences = result.timings?.sentences ?? [];
    expect(sentences.map((s) => s.text)).toEqual(["你好，世界。", "今天天气很好！"]);
    const [first, second] = sentences;
    expect(first && second && first.startMs < first.endMs && first.endMs < second.startMs && second.startMs < second.endMs).toBe(true);
    expect(result.timings?.chars).toBeUndefined();
    const vtt = new TextDecoder().decode(await fy.download(result.subtitles?.vtt ?? ""));
    expect(vtt.startsWith("WEBVTT\n\n1\n")).toBe(true);
    expect(vtt).toContain("\n今天天气很好！\n");
    expect(result.audioUrl.replace(/\.mp3$/, ".srt")).toBe(result.subtitles?.srt);
  });

  it("estimateCost matches the service's charge to the micro-yuan at every price tier", async () => {
    const text = `${"粤语广播。".repeat(10)}好`; // 51 characters: billed as 100
    for (const recharge of ["10", "500", "2000"]) {
      const { fy } = await clientFor(recharge);
      const { pricePerWanYuan } = await fy.account();
      const { billing } = await fy.tts({ text, voiceId: "yue-female-1" });
      expect(billing.billableChars).toBe(100);
      expect(billing.costYuan).toBe(estimateCost(text, pricePerWanYuan));
    }
  });

  it("the voice controls reach the engine: half speed takes longer than double speed", async () => {
    const { fy } = await clientFor();
    const text = "今天天气很好，我们去公园散步吧。";
    const slow = await fy.download((await fy.tts({ text, voiceId: "cmn-male-1", speed: 0.5 })).audioUrl);
    const fast = await fy.download((await fy.tts({ text, voiceId: "cmn-male-1", speed: 2, pitch: 1.2, volume: 0.8 })).audioUrl);
    expect(describeMp3(slow).durationMs).toBeGreaterThan(describeMp3(fast).durationMs * 2);
  });

  it("voices lists every voice under its dialect label, ready to pass as voiceId", async () => {
    const { fy } = await clientFor();
    const list = await fy.voices();
    expect(list.requestId).toEqual(requestId);
    expect(Object.keys(list.byDialect)).toEqual(expect.arrayContaining(["粤语", "普通话"]));
    expect(list.voices).toContainEqual({
      id: "yue-female-1",
      name: expect.any(String),
      dialect: "粤语",
      dialectCode: "yue",
      gender: "female",
    });
    for (const [dialect, voices] of Object.entries(list.byDialect)) for (const voice of voices) expect(voice.dialect).toBe(dialect);
    expect(list.voices).toHaveLength(Object.values(list.byDialect).flat().length);
  });

  it("account reports the name, balance, totals and the price that applies", async () => {
    const { fy } = await clientFor("12.5");
    await fy.tts({ text: "早晨", voiceId: "yue-male-1" });
    expect(await fy.account()).toEqual({
      name: "客户",
      balanceYuan: 12.49,
      totalRechargeYuan: 12.5,
      totalConsumedYuan: 0.01,
      pricePerWanYuan: 2,
      requestId,
    });
  });

  it("ttsLong of a text that fits is one request, and gives the service's file unchanged", async () => {
    const { fy } = await clientFor();
    const progress: number[] = [];
    const result = await fy.ttsLong({ text: "你好。", voiceId: "cmn-female-1" }, { onProgress: (p) => progress.push(p.partsDone) });
    expect(progress).toEqual([0, 1]);
    expect(result.parts).toHaveLength(1);
    expect(result.mp3).toEqual(await fy.download(result.parts[0]?.audioUrl ?? ""));
    expect(result).toMatchObject({ rawChars: 3, billableChars: 50, costYuan: 0.01, balanceAfterYuan: 9.99 });
  });

  it("the Node helpers write the MP3 to a file", async () => {
    const { fy } = await clientFor();
    const dir = await mkdtemp(path.join(os.tmpdir(), "fy-files-"));
    try {
      const spoken = await ttsToFile(fy, { text: "你好", voiceId: "yue-female-1" }, path.join(dir, "hi.mp3"));
      const written = await readFile(spoken.path);
      expect(new Uint8Array(written)).toEqual(spoken.mp3);
      const copy = await downloadToFile(fy, spoken.parts[0]?.audioUrl ?? "", path.join(dir, "copy.mp3"));
      expect(copy.bytes).toBe(written.length);
      expect(await readFile(copy.path)).toEqual(written);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("a retried POST /tts is charged once", () => {
  it("when the connection drops after the service answered, the same envelope is re-sent and the first answer comes back", async () => {
    const bodies: string[] = [];
    let dropped = false;
    // Lets the first POST reach the service and be charged, then loses the answer on the way back.
    const lossy: Fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method !== "POST") return response;
      bodies.push(String(init.body));
      if (!dropped) {
        dropped = true;
        await response.arrayBuffer();
        throw new TypeError("fetch failed", { cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) });
      }
      return response;
    };
    const { fy } = await clientFor("10", { fetch: lossy });
    const result = await fy.tts({ text: "你好，世界", voiceId: "cmn-female-1" });

    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
    expect(result.billing).toEqual({ rawChars: 5, billableChars: 50, costYuan: 0.01, balanceAfterYuan: 9.99 });
    const account = await fy.account();
    expect(account.balanceYuan).toBe(9.99);
    expect(account.totalConsumedYuan).toBe(0.01);
  });
});

describe("every error the service can answer is its own class", () => {
  it("MISSING_API_KEY, sent as plain JSON, is a MissingApiKeyError", async () => {
    // A proxy that drops the key header: the only way a client that has a key can get this answer.
    const dropKey: Fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.delete("X-API-Key");
      return fetch(input, { ...init, headers });
    };
    const { fy } = await clientFor("10", { fetch: dropKey });
    const error = await failure(() => fy.voices());
    expect(error).toBeInstanceOf(MissingApiKeyError);
    expect(error).toMatchObject({ code: "MISSING_API_KEY", status: 401, requestId, message: expect.stringContaining("X-API-Key") });
  });

  it("a computer clock 10 minutes slow gets an AuthError that says how far off the clock is", async () => {
    const { fy } = await clientFor();
    const realNow = Date.now.bind(Date);
    // Only this test process's clock is set back; the server's stays right.
    const clock = vi.spyOn(Date, "now").mockImplementation(() => realNow() - 10 * 60_000);
    const error = await failure(() => fy.tts({ text: "你好", voiceId: "cmn-female-1" })).finally(() => clock.mockRestore());
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: "AUTH_ERROR", status: 401, requestId, details: { max_age_ms: 300_000 } });
    const skew = (error as AuthError).clockSkewMs ?? 0;
    expect(skew).toBeLessThan(-9 * 60_000);
    expect(skew).toBeGreaterThan(-11 * 60_000);
  });

  it("an unknown key is an InvalidApiKeyError", async () => {
    const fy = new Fangyan({ apiKey: "fy_this_key_was_never_issued_00000", baseUrl: server.baseUrl });
    const error = await failure(() => fy.account());
    expect(error).toBeInstanceOf(InvalidApiKeyError);
    expect(error).toMatchObject({ code: "INVALID_API_KEY", status: 401, requestId });
  });

  it("a body the service cannot decrypt is a DecryptionFailedError", async () => {
    const garbled: Fetch = (input, init) =>
      fetch(input, {
        ...init,
        body: JSON.stringify({ encryptedData: "AAAAAAAAAAAAAAAAAAAAAA==", iv: "AAAAAAAAAAAAAAAAAAAAAA==", timestamp: Date.now() }),
      });
    const { fy } = await clientFor("10", { fetch: garbled });
    const error = await failure(() => fy.tts({ text: "你好", voiceId: "cmn-female-1" }));
    expect(error).toBeInstanceOf(DecryptionFailedError);
    expect(error).toMatchObject({ code: "DECRYPTION_FAILED", status: 400, requestId });
  });

  it("an empty text or an out-of-range control is a MissingParameterError naming the field", async () => {
    const { fy } = await clientFor();
    const empty = await failure(() => fy.tts({ text: "", voiceId: "cmn-female-1" }));
    expect(empty).toBeInstanceOf(MissingParameterError);
    expect(empty).toMatchObject({ code: "MISSING_PARAMETER", status: 400, missing: ["text"], invalid: [], requestId });
    const fast = await failure(() => fy.tts({ text: "你好", voiceId: "cmn-female-1", speed: 5 }));
    expect(fast).toMatchObject({ missing: [], invalid: ["speed"], message: expect.stringMatching(/0\.5/) });
  });

  it("5001 characters are a TextTooLongError with the count", async () => {
    const { fy } = await clientFor();
    const error = await failure(() => fy.tts({ text: "好".repeat(5001), voiceId: "cmn-female-1" }));
    expect(error).toBeInstanceOf(TextTooLongError);
    expect(error).toMatchObject({ code: "TEXT_TOO_LONG", status: 400, maxChars: 5000, chars: 5001, requestId });
  });

  it("a balance too low is an InsufficientBalanceError with the amounts in cents", async () => {
    const { fy } = await clientFor("0");
    const error = await failure(() => fy.tts({ text: "你好", voiceId: "cmn-female-1" }));
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    expect(error).toMatchObject({ code: "INSUFFICIENT_BALANCE", status: 402, requiredCents: 1, availableCents: 0, requestId });
    expect((error as InsufficientBalanceError).details).toEqual({ required_cents: 1, available_cents: 0 });
  });

  it("too many requests are a RateLimitError with the wait the service asked for", async () => {
    const { fy, accountId } = await clientFor("10", { maxRetries: 0 });
    await server.setRateLimit(accountId, 1);
    await fy.voices();
    const error = await failure(() => fy.voices());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", status: 429, limit: 1, requestId });
    const wait = (error as RateLimitError).retryAfterSeconds ?? 0;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect((error as RateLimitError).headers?.get("retry-after")).toBe(String(wait));
  });

  it("an unknown voice is a TtsFailedError (HTTP 200) naming the voice, and nothing is charged", async () => {
    const { fy } = await clientFor();
    const error = await failure(() => fy.tts({ text: "你好", voiceId: "klingon-1" }));
    expect(error).toBeInstanceOf(TtsFailedError);
    expect(error).toMatchObject({ code: "TTS_FAILED", status: 200, voiceId: "klingon-1", requestId });
    expect((await fy.account()).balanceYuan).toBe(10);
  });

  it("all of them are APIErrors, so one catch can handle any answer of the service", async () => {
    const fy = new Fangyan({ apiKey: "fy_unknown", baseUrl: server.baseUrl });
    expect(await failure(() => fy.voices())).toBeInstanceOf(APIError);
  });
});

describe("failures that are not answers of the service", () => {
  it("a closed port is an APIConnectionError, after the retries", async () => {
    const port = await freePort();
    let attempts = 0;
    const counting: Fetch = (input, init) => {
      attempts++;
      return fetch(input, init);
    };
    const fy = new Fangyan({ apiKey: "fy_x", baseUrl: `http://127.0.0.1:${port}/api/v1`, maxRetries: 1, fetch: counting });
    const error = await failure(() => fy.voices());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toContain("ECONNREFUSED");
    expect(attempts).toBe(2);
  });

  it("a server that never answers is an APITimeoutError after timeoutMs, retried like a network failure", async () => {
    const sockets: string[] = [];
    const silent = http.createServer((request) => {
      sockets.push(request.url ?? "");
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      const fy = new Fangyan({ apiKey: "fy_x", baseUrl: `http://127.0.0.1:${port}/api/v1`, timeoutMs: 300, maxRetries: 1 });
      const started = Date.now();
      const error = await failure(() => fy.account());
      expect(error).toBeInstanceOf(APITimeoutError);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).toContain("0.3 s");
      expect(sockets).toEqual(["/api/v1/account", "/api/v1/account"]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("an address that is not a Fangyan API is an UnexpectedResponseError", async () => {
    const fy = new Fangyan({ apiKey: "fy_x", baseUrl: server.baseUrl.replace(/\/api\/v1$/, "/nothing-here") });
    const error = await failure(() => fy.voices());
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ status: 404 });
  });

  it("a base URL without /api/v1 is told which URL the API is at", async () => {
    const origin = new URL(server.baseUrl).origin;
    const fy = new Fangyan({ apiKey: "fy_x", baseUrl: origin, maxRetries: 0 });
    const error = await failure(() => fy.voices());
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ message: expect.stringContaining(`does not end in /api/v1; the API is at ${origin}/api/v1`) });
  });

  it("an expired or unknown audio URL is an AudioDownloadError that says why", async () => {
    const { fy } = await clientFor();
    const origin = new URL(server.baseUrl).origin;
    const error = await failure(() => fy.download(`${origin}/audio/AAAAAAAAAAAAAAAAAAAAAA.mp3`));
    expect(error).toBeInstanceOf(AudioDownloadError);
    expect(error).toMatchObject({ status: 404, message: expect.stringContaining("expire") });
  });
});
