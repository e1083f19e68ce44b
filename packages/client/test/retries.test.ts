import { afterEach, describe, expect, it, vi } from "vitest";
import { parseRetryAfterSeconds } from "../src/core/errors.js";
import { backoffMs, canResend, RESEND_WINDOW_MS, retryDelayMs } from "../src/core/retry.js";
import {
  APIConnectionError,
  APIUserAbortError,
  Fangyan,
  FangyanError,
  type Fetch,
  InvalidApiKeyError,
  RateLimitError,
  TtsFailedError,
  UnexpectedResponseError,
} from "../src/index.js";

/*
 * Retry behaviour with a scripted fetch: answers are plain wrappers, which
 * the client accepts as it accepts MISSING_API_KEY's, so no key is needed.
 */

type Step = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

function scripted(steps: Step[]) {
  const calls: Array<{ url: string; method: string; body: string | undefined }> = [];
  const fetch: Fetch = async (input, init) => {
    calls.push({ url: String(input), method: init?.method ?? "GET", body: init?.body === undefined ? undefined : String(init.body) });
    const step = steps.shift();
    if (step === undefined) throw new Error("no more scripted answers");
    if (step instanceof Error) throw step;
    return new Response(JSON.stringify(step.body ?? {}), {
      status: step.status,
      headers: { "Content-Type": "application/json", "X-Request-Id": `req_${calls.length}`, ...step.headers },
    });
  };
  return { fetch, calls };
}

const account = { name: "a", balance_yuan: 1, total_recharge_yuan: 1, total_consumed_yuan: 0, price_per_wan_yuan: 2 };
const ok = (data: unknown): Step => ({ status: 200, body: { success: true, data } });
const fail = (status: number, error_code: string, headers?: Record<string, string>, details?: unknown): Step => ({
  status,
  body: { success: false, error_code, message: `${error_code} happened`, details },
  ...(headers ? { headers } : {}),
});
const networkDown = () =>
  new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
const speech = {
  audio_url: "http://x/audio/a.mp3",
  billing: { raw_chars: 2, billable_chars: 50, cost_yuan: 0.01, balance_after_yuan: 0.99 },
};

function client(fetch: Fetch, maxRetries = 2) {
  return new Fangyan({ apiKey: "fy_test", baseUrl: "http://fangyan.test/api/v1", fetch, maxRetries });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("retries", () => {
  it("a network failure, then a 5xx, then success: three attempts, one result", async () => {
    const { fetch, calls } = scripted([networkDown(), fail(500, "TTS_FAILED"), ok(account)]);
    const result = await client(fetch).account();
    expect(result.balanceYuan).toBe(1);
    expect(result.requestId).toBe("req_3");
    expect(calls).toHaveLength(3);
  });

  it("a retried POST sends the very same sealed envelope every time", async () => {
    const { fetch, calls } = scripted([networkDown(), fail(503, "TTS_FAILED"), ok(speech)]);
    await client(fetch).tts({ text: "你好", voiceId: "cmn-female-1" });
    expect(calls.map((call) => call.method)).toEqual(["POST", "POST", "POST"]);
    expect(new Set(calls.map((call) => call.body)).size).toBe(1);
    expect(JSON.parse(calls[0]?.body ?? "{}")).toEqual({
      encryptedData: expect.any(String),
      iv: expect.any(String),
      timestamp: expect.any(Number),
    });
  });

  it("a 429 waits for the Retry-After the service sent, then succeeds", async () => {
    const { fetch, calls } = scripted([fail(429, "RATE_LIMIT_EXCEEDED", { "Retry-After": "1" }), ok(account)]);
    const started = Date.now();
    await client(fetch).account();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(calls).toHaveLength(2);
  });

  it("gives up after maxRetries and throws the last answer's error", async () => {
    const { fetch, calls } = scripted([
      fail(429, "RATE_LIMIT_EXCEEDED", { "Retry-After": "0" }),
      fail(429, "RATE_LIMIT_EXCEEDED", { "Retry-After": "0" }),
    ]);
    const error = await client(fetch, 1)
      .voices()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterSeconds: 0, requestId: "req_2" });
    expect(calls).toHaveLength(2);
  });

  it("does not wait longer than a minute on its own: a longer Retry-After is thrown at once", async () => {
    const { fetch, calls } = scripted([fail(429, "RATE_LIMIT_EXCEEDED", { "Retry-After": "3600" })]);
    const error = await client(fetch)
      .voices()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ retryAfterSeconds: 3600 });
    expect(calls).toHaveLength(1);
  });

  it("answers that are final (4xx, TTS_FAILED with HTTP 200) are not retried", async () => {
    const refused = scripted([fail(401, "INVALID_API_KEY")]);
    expect(
      await client(refused.fetch)
        .account()
        .catch((e: unknown) => e),
    ).toBeInstanceOf(InvalidApiKeyError);
    expect(refused.calls).toHaveLength(1);
    const failed = scripted([fail(200, "TTS_FAILED", undefined, { voice_id: "x" })]);
    expect(
      await client(failed.fetch)
        .tts({ text: "a", voiceId: "x" })
        .catch((e: unknown) => e),
    ).toBeInstanceOf(TtsFailedError);
    expect(failed.calls).toHaveLength(1);
  });

  it("a proxy's 502 page is retried, and reported as an UnexpectedResponseError if it persists", async () => {
    const page = () => new Response("<html>Bad Gateway</html>", { status: 502 });
    let calls = 0;
    const fetch: Fetch = async () => {
      calls++;
      return page();
    };
    const error = await client(fetch, 1)
      .voices()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ status: 502 });
    expect(calls).toBe(2);
  });

  it("a POST is not re-sent once its envelope is too old to count as the same request, so it is never charged twice", async () => {
    const realNow = Date.now.bind(Date);
    const { calls } = scripted([]);
    const fetch: Fetch = async (input, init) => {
      calls.push({ url: String(input), method: init?.method ?? "GET", body: String(init?.body) });
      // The first attempt took 4.6 minutes before the connection broke.
      vi.spyOn(Date, "now").mockImplementation(() => realNow() + 276_000);
      throw networkDown();
    };
    const error = await client(fetch)
      .tts({ text: "你好", voiceId: "cmn-female-1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(calls).toHaveLength(1);
  });

  it("a GET has no such limit: it is simply asked again", async () => {
    const { fetch, calls } = scripted([networkDown(), ok(account)]);
    await client(fetch).account();
    expect(calls).toHaveLength(2);
  });

  it("the caller's AbortSignal stops the call, also while it waits to retry", async () => {
    const { fetch } = scripted([fail(429, "RATE_LIMIT_EXCEEDED", { "Retry-After": "30" })]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await client(fetch)
      .voices({ signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("retry timing", () => {
  it("backs off exponentially from 0.5 s up to 8 s, with at most 25% jitter", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((retry) => backoffMs(retry, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(backoffMs(0, () => 1)).toBe(375);
  });

  it("prefers the server's Retry-After, up to a minute", () => {
    expect(retryDelayMs(0, 7)).toBe(7000);
    expect(retryDelayMs(0, 60)).toBe(60_000);
    expect(retryDelayMs(0, 61)).toBeUndefined();
    expect(retryDelayMs(2, undefined, () => 0)).toBe(2000);
  });

  it("re-sends an envelope only while it is under 4.5 minutes old", () => {
    expect(RESEND_WINDOW_MS).toBe(270_000);
    expect(canResend(1_000_000, 1_000_000 + 269_999)).toBe(true);
    expect(canResend(1_000_000, 1_000_000 + 270_000)).toBe(false);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfterSeconds("42")).toBe(42);
    expect(parseRetryAfterSeconds(new Date(1_000_000 + 30_000).toUTCString(), 1_000_000)).toBe(30);
    expect(parseRetryAfterSeconds("soon")).toBeUndefined();
    expect(parseRetryAfterSeconds(null)).toBeUndefined();
  });
});

describe("creating a client", () => {
  it("without a key it refuses at once and says how to give one", () => {
    vi.stubEnv("FANGYAN_API_KEY", "");
    expect(() => new Fangyan()).toThrow(FangyanError);
    expect(() => new Fangyan()).toThrow(/FANGYAN_API_KEY .* apiKey option/);
    expect(() => new Fangyan({ apiKey: "   " })).toThrow(/FANGYAN_API_KEY/);
    vi.unstubAllEnvs();
  });

  it("falls back to FANGYAN_API_KEY and FANGYAN_BASE_URL, and to the local default address", async () => {
    vi.stubEnv("FANGYAN_API_KEY", "fy_from_env");
    vi.stubEnv("FANGYAN_BASE_URL", "https://tts.example.com/api/v1/");
    const { fetch, calls } = scripted([ok(account)]);
    const fromEnv = new Fangyan({ fetch });
    expect(fromEnv.baseUrl).toBe("https://tts.example.com/api/v1");
    await fromEnv.account();
    expect(calls[0]?.url).toBe("https://tts.example.com/api/v1/account");
    vi.stubEnv("FANGYAN_BASE_URL", "");
    expect(new Fangyan().baseUrl).toBe("http://127.0.0.1:8080/api/v1");
    vi.unstubAllEnvs();
  });

  it("sends the key in X-API-Key on every call, and never to the audio host", async () => {
    const seen: Array<string | null> = [];
    const fetch: Fetch = async (_input, init) => {
      seen.push(new Headers(init?.headers).get("x-api-key"));
      return seen.length === 1 ? new Response(JSON.stringify({ success: true, data: account })) : new Response(new Uint8Array([1, 2, 3]));
    };
    const fy = new Fangyan({ apiKey: "fy_secret", baseUrl: "http://fangyan.test/api/v1", fetch });
    await fy.account();
    expect(await fy.download("https://cdn.example.com/audio/x.mp3")).toEqual(new Uint8Array([1, 2, 3]));
    expect(seen).toEqual(["fy_secret", null]);
  });

  it("refuses a base URL that is not http(s), and nonsense retry or timeout settings", () => {
    expect(() => new Fangyan({ apiKey: "fy_x", baseUrl: "127.0.0.1:8080" })).toThrow(/not an http\(s\) URL/);
    expect(() => new Fangyan({ apiKey: "fy_x", maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => new Fangyan({ apiKey: "fy_x", timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it("keeps the key out of what a log of the client object shows", () => {
    const fy = new Fangyan({ apiKey: "fy_secret_value", baseUrl: "http://fangyan.test/api/v1" });
    expect(JSON.stringify(fy)).not.toContain("fy_secret_value");
    expect(Object.values(fy)).not.toContain("fy_secret_value");
  });
});
