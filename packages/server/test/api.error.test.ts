import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./helpers/harness.js";
import { SpecClient, seal } from "./helpers/spec-client.js";

let t: TestServer;
beforeAll(async () => {
  // A high failed-auth limit here: this file sends many bad keys on purpose.
  t = await startTestServer({ FANGYAN_AUTH_FAILURES_PER_MINUTE: "1000" });
});
afterAll(() => t?.close());

const VOICE = "cmn-female-1";
const UNKNOWN_KEY = `fy_${"A".repeat(32)}`;

describe("every error code, with its status and details", () => {
  it("MISSING_API_KEY: 401, sent as plain JSON because there is no key to encrypt with", async () => {
    const client = new SpecClient(t.baseUrl, undefined);
    const answer = await client.send("GET", "/account");
    expect(answer.status).toBe(401);
    expect(answer.encrypted).toBe(false);
    expect(answer.body).toEqual({ success: false, error_code: "MISSING_API_KEY", message: expect.any(String) });
  });

  it("AUTH_ERROR: 401 for an empty key header, encrypted with the empty key", async () => {
    const answer = await new SpecClient(t.baseUrl, "").account();
    expect(answer.status).toBe(401);
    expect(answer.encrypted).toBe(true);
    expect(answer.body).toMatchObject({ success: false, error_code: "AUTH_ERROR" });
  });

  it("INVALID_API_KEY: 401, encrypted with the key that was presented", async () => {
    for (const key of [UNKNOWN_KEY, "not-a-key", "fy_short"]) {
      const answer = await new SpecClient(t.baseUrl, key).voices();
      expect(answer.status).toBe(401);
      expect(answer.encrypted).toBe(true);
      expect(answer.body).toMatchObject({ success: false, error_code: "INVALID_API_KEY" });
    }
  });

  it("DECRYPTION_FAILED: 400 and one identical answer for every kind of bad body", async () => {
    const { client, apiKey, accountId } = await t.newCustomer();
    const good = seal(apiKey, { text: "你好", voice_id: VOICE });
    const wrongKey = seal("fy_someone_else", { text: "你好", voice_id: VOICE });
    const bodies = [
      "",
      "not json",
      "[]",
      JSON.stringify({ iv: good.iv, timestamp: good.timestamp }),
      JSON.stringify({ ...good, encryptedData: "***" }),
      JSON.stringify({ ...good, iv: Buffer.alloc(8).toString("base64") }),
      JSON.stringify({ ...good, encryptedData: Buffer.alloc(33).toString("base64") }),
      JSON.stringify({ ...good, timestamp: "soon" }),
      JSON.stringify(wrongKey),
      JSON.stringify(seal(apiKey, "just a string")),
      JSON.stringify(seal(apiKey, "{broken json")),
      JSON.stringify(seal(apiKey, '"a JSON string"')),
    ];
    const answers = await Promise.all(bodies.map((body) => client.send("POST", "/tts", body)));
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ success: false, error_code: "DECRYPTION_FAILED", message: answers[0]?.body.message });
    }
    expect(await t.accounts.getAccount(accountId)).toMatchObject({ totalConsumedMicro: 0 });
  });

  it("AUTH_ERROR: 401 for a timestamp outside the window, with server time and max age", async () => {
    const { client } = await t.newCustomer();
    for (const offset of [-301_000, 61_000]) {
      const answer = await client.tts({ text: "你好", voice_id: VOICE }, Date.now() + offset);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({
        error_code: "AUTH_ERROR",
        details: { server_time_ms: expect.any(Number), max_age_ms: 300000 },
      });
    }
    // Just inside both edges is accepted.
    for (const offset of [-295_000, 55_000]) {
      expect((await client.tts({ text: "你好", voice_id: VOICE }, Date.now() + offset)).body.success).toBe(true);
    }
  });

  it("MISSING_PARAMETER: 400 naming the missing fields", async () => {
    const { client } = await t.newCustomer();
    const cases: Array<[unknown, string[]]> = [
      [{ voice_id: VOICE }, ["text"]],
      [{ text: "你好" }, ["voice_id"]],
      [{}, ["text", "voice_id"]],
      [{ text: "", voice_id: VOICE }, ["text"]],
      [{ text: 42, voice_id: ["x"] }, ["text", "voice_id"]],
    ];
    for (const [payload, missing] of cases) {
      const answer = await client.tts(payload);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error_code: "MISSING_PARAMETER", details: { missing } });
    }
  });

  it("MISSING_PARAMETER: 400 with details.invalid and the range for a bad voice control", async () => {
    const { client } = await t.newCustomer();
    const cases: Array<[Record<string, unknown>, string[], RegExp]> = [
      [{ speed: 3 }, ["speed"], /speed must be a number from 0.5 to 2/],
      [{ pitch: "high" }, ["pitch"], /pitch must be a number from 0.5 to 2/],
      [{ volume: 0 }, ["volume"], /volume must be a number from 0.1 to 2/],
      [{ speed: null, volume: 2.5 }, ["speed", "volume"], /speed .* volume/],
    ];
    for (const [controls, invalid, message] of cases) {
      const answer = await client.tts({ text: "你好", voice_id: VOICE, ...controls });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error_code: "MISSING_PARAMETER", details: { invalid } });
      expect(answer.body.message).toMatch(message);
    }
  });

  it("TEXT_TOO_LONG: 400 over 5000 code points, with the limit and the count", async () => {
    const { client } = await t.newCustomer();
    const answer = await client.tts({ text: "𠮷".repeat(5001), voice_id: VOICE });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error_code: "TEXT_TOO_LONG", details: { max_chars: 5000, chars: 5001 } });
  });

  it("TEXT_TOO_LONG also answers a body too large to hold any allowed text", async () => {
    const { client, apiKey } = await t.newCustomer();
    const answer = await client.send("POST", "/tts", JSON.stringify(seal(apiKey, { text: "x".repeat(400_000), voice_id: VOICE })));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error_code: "TEXT_TOO_LONG", details: { max_chars: 5000 } });
  });

  it("TTS_FAILED: HTTP 200 with the unknown voice_id, and nothing charged", async () => {
    const { client } = await t.newCustomer("1");
    const answer = await client.tts({ text: "你好", voice_id: "klingon-1" });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: false, error_code: "TTS_FAILED", details: { voice_id: "klingon-1" } });
    expect((await client.account()).body).toMatchObject({ data: { balance_yuan: 1 } });
  });

  it("TTS_FAILED: HTTP 200 when there is nothing to speak, and nothing charged", async () => {
    const { client } = await t.newCustomer("1");
    const answer = await client.tts({ text: "😀😀 ……", voice_id: VOICE });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: false, error_code: "TTS_FAILED", message: expect.any(String) });
    expect((await client.account()).body).toMatchObject({ data: { balance_yuan: 1 } });
  });

  it("INSUFFICIENT_BALANCE: 402 with required cents rounded up and available cents down", async () => {
    // 2 000 yuan recharged: 1.75 yuan per 10 000 characters, so 100 billable characters cost
    // 17 500 micro-yuan (1.75 cents, asked as 2) against 8 750 left (0.875 cents, offered as 0).
    const { client, accountId } = await t.newCustomer("2000");
    await t.store.charge({
      accountId,
      keyId: "key_test",
      costMicro: 2_000_000_000 - 8_750,
      rawChars: 0,
      billableChars: 0,
      audioId: "x",
      at: Date.now(),
    });
    const answer = await client.tts({ text: "一".repeat(60), voice_id: VOICE });
    expect(answer.status).toBe(402);
    expect(answer.body).toMatchObject({ error_code: "INSUFFICIENT_BALANCE", details: { required_cents: 2, available_cents: 0 } });
  });

  it("a balance of exactly the cost is enough, and ends at zero", async () => {
    const { client } = await t.newCustomer("0.01");
    const answer = await client.tts({ text: "你好", voice_id: VOICE });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, data: { billing: { cost_yuan: 0.01, balance_after_yuan: 0 } } });
  });

  it("RATE_LIMIT_EXCEEDED: 429 with limit, window and retry-after", async () => {
    const { client, accountId } = await t.newCustomer();
    await t.accounts.setRateLimit(accountId, 2);
    await client.account();
    await client.account();
    const answer = await client.account();
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({
      error_code: "RATE_LIMIT_EXCEEDED",
      details: { limit: 2, window_seconds: 60, retry_after_seconds: expect.any(Number) },
    });
    expect(Number(answer.headers.get("retry-after"))).toBe((answer.body.details as { retry_after_seconds: number }).retry_after_seconds);
  });
});

describe("which error comes first", () => {
  it("a missing key beats everything", async () => {
    const answer = await new SpecClient(t.baseUrl, undefined).send("POST", "/tts", "garbage");
    expect(answer.body.error_code).toBe("MISSING_API_KEY");
  });

  it("an empty key beats an undecryptable body", async () => {
    const answer = await new SpecClient(t.baseUrl, "").send("POST", "/tts", "garbage");
    expect(answer.body.error_code).toBe("AUTH_ERROR");
  });

  it("an invalid key beats an undecryptable or oversized body", async () => {
    const client = new SpecClient(t.baseUrl, UNKNOWN_KEY);
    expect((await client.send("POST", "/tts", "garbage")).body.error_code).toBe("INVALID_API_KEY");
    expect((await client.send("POST", "/tts", "x".repeat(400_000))).body.error_code).toBe("INVALID_API_KEY");
  });

  it("the rate limit beats an undecryptable body", async () => {
    const { client, accountId } = await t.newCustomer();
    await t.accounts.setRateLimit(accountId, 1);
    await client.account();
    expect((await client.send("POST", "/tts", "garbage")).body.error_code).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("decryption beats a stale timestamp; a stale timestamp beats missing parameters", async () => {
    const { client, apiKey } = await t.newCustomer();
    const stale = seal("fy_wrong_key", {}, Date.now() - 600_000);
    expect((await client.send("POST", "/tts", JSON.stringify(stale))).body.error_code).toBe("DECRYPTION_FAILED");
    const staleButReadable = seal(apiKey, {}, Date.now() - 600_000);
    expect((await client.send("POST", "/tts", JSON.stringify(staleButReadable))).body.error_code).toBe("AUTH_ERROR");
  });

  it("missing parameters beat a text that is too long; too long beats an unknown voice", async () => {
    const { client } = await t.newCustomer();
    expect((await client.tts({ text: "x".repeat(5001) })).body.error_code).toBe("MISSING_PARAMETER");
    expect((await client.tts({ text: "x".repeat(5001), voice_id: "nope" })).body.error_code).toBe("TEXT_TOO_LONG");
  });

  it("an unknown voice beats an insufficient balance", async () => {
    const { client, accountId } = await t.newCustomer("0.01");
    await t.store.charge({ accountId, keyId: "key_test", costMicro: 10_000, rawChars: 0, billableChars: 0, audioId: "x", at: Date.now() });
    expect((await client.tts({ text: "你好", voice_id: "nope" })).body.error_code).toBe("TTS_FAILED");
    expect((await client.tts({ text: "你好", voice_id: VOICE })).body.error_code).toBe("INSUFFICIENT_BALANCE");
  });

  it("an insufficient balance beats a synthesis that would fail", async () => {
    const { client, accountId } = await t.newCustomer("0.01");
    await t.store.charge({ accountId, keyId: "key_test", costMicro: 10_000, rawChars: 0, billableChars: 0, audioId: "x", at: Date.now() });
    expect((await client.tts({ text: "😀", voice_id: VOICE })).body.error_code).toBe("INSUFFICIENT_BALANCE");
  });
});
