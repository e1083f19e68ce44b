import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./helpers/harness.js";
import { data, SpecClient, seal } from "./helpers/spec-client.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const VOICE = "yue-female-1";

describe("replays", () => {
  it("a replayed envelope gets the first answer and is charged once", async () => {
    const { client, apiKey } = await t.newCustomer("1");
    const body = JSON.stringify(seal(apiKey, { text: "早晨，食咗飯未？", voice_id: VOICE }));
    const first = await client.send("POST", "/tts", body);
    const second = await client.send("POST", "/tts", body);
    expect(data(second)).toEqual(data(first));
    expect(data(await client.account())).toMatchObject({ balance_yuan: 0.99, total_consumed_yuan: 0.01 });
  });

  it("the same envelope sent five times at once runs once and is charged once", async () => {
    const { client, apiKey } = await t.newCustomer("1");
    const body = JSON.stringify(seal(apiKey, { text: "你好", voice_id: VOICE }));
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.send("POST", "/tts", body)));
    const urls = new Set(answers.map((answer) => data<{ audio_url: string }>(answer).audio_url));
    expect(urls.size).toBe(1);
    expect(data(await client.account())).toMatchObject({ balance_yuan: 0.99 });
  });

  it("a replayed failure is answered the same, and a fresh envelope is run anew", async () => {
    const { client, apiKey } = await t.newCustomer("1");
    const body = JSON.stringify(seal(apiKey, { text: "你好", voice_id: "nope" }));
    const first = await client.send("POST", "/tts", body);
    expect((await client.send("POST", "/tts", body)).body).toEqual(first.body);
    expect((await client.tts({ text: "你好", voice_id: VOICE })).body.success).toBe(true);
  });
});

describe("concurrent charges", () => {
  it("30 concurrent requests against a balance for 7 charge exactly 7 and end at zero", async () => {
    const { client, accountId } = await t.newCustomer("0.07");
    await t.accounts.setRateLimit(accountId, 1000);
    const filesBefore = new Set(await fs.readdir(path.join(t.dataDir, "audio")));
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => client.tts({ text: `第${i}句`, voice_id: VOICE })));
    const ok = answers.filter((answer) => answer.body.success);
    const refused = answers.filter((answer) => answer.body.error_code === "INSUFFICIENT_BALANCE");
    expect(ok).toHaveLength(7);
    expect(refused).toHaveLength(23);
    for (const answer of refused) {
      expect(answer.status).toBe(402);
      expect(answer.body.details).toEqual({ required_cents: 1, available_cents: 0 });
    }
    const account = await t.accounts.getAccount(accountId);
    expect(account.balanceMicro).toBe(0);
    const ledger = await t.accounts.ledger(accountId, { limit: 500 });
    expect(ledger.filter((e) => e.kind === "charge")).toHaveLength(7);
    expect(ledger.reduce((sum, e) => sum + e.amountMicro, 0)).toBe(account.balanceMicro);
    // The audio of a refused charge was discarded: only the 7 charged files were added.
    const charged = new Set(ledger.flatMap((e) => (e.audioId ? [`${e.audioId}.mp3`] : [])));
    for (const answer of ok) {
      const url = data<{ audio_url: string }>(answer).audio_url;
      expect(charged.has(path.basename(url))).toBe(true);
    }
    const added = (await fs.readdir(path.join(t.dataDir, "audio"))).filter((file) => !filesBefore.has(file));
    expect(added.sort()).toEqual([...charged].sort());
  });
});

describe("keys and accounts", () => {
  it("the 61st request in a minute is refused", async () => {
    const { client } = await t.newCustomer();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await client.account()).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it("reports the rate limit in headers on every API response", async () => {
    const { client } = await t.newCustomer();
    const first = await client.account();
    const second = await client.voices();
    expect(first.headers.get("ratelimit-limit")).toBe("60");
    expect(first.headers.get("ratelimit-remaining")).toBe("59");
    expect(second.headers.get("ratelimit-remaining")).toBe("58");
    expect(Number(first.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    const failed = await client.tts({ voice_id: VOICE });
    expect(failed.headers.get("ratelimit-remaining")).toBe("57");
  });

  it("a disabled key is refused while the account's other keys work", async () => {
    const { client, accountId, apiKey } = await t.newCustomer();
    const second = await t.accounts.issueKey(accountId);
    await t.accounts.setKeyStatus(apiKey, "disabled");
    expect((await client.account()).body.error_code).toBe("INVALID_API_KEY");
    expect((await new SpecClient(t.baseUrl, second.apiKey).account()).status).toBe(200);
    await t.accounts.setKeyStatus(apiKey, "active");
    expect((await client.account()).status).toBe(200);
  });

  it("a disabled account's keys are all refused", async () => {
    const { client, accountId } = await t.newCustomer();
    await t.accounts.setAccountStatus(accountId, "disabled");
    expect((await client.account()).body.error_code).toBe("INVALID_API_KEY");
  });
});

describe("secrets", () => {
  it("stores neither the key nor SHA-256 of it, and never echoes it", async () => {
    const { apiKey, accountId } = await t.newCustomer();
    expect(apiKey).toMatch(/^fy_[A-Za-z0-9_-]{32}$/);
    const database = await fs.readFile(path.join(t.dataDir, "fangyan.db"));
    const wal = await fs.readFile(path.join(t.dataDir, "fangyan.db-wal")).catch(() => Buffer.alloc(0));
    const sha = createHash("sha256").update(apiKey).digest();
    for (const file of [database, wal]) {
      expect(file.includes(apiKey)).toBe(false);
      expect(file.includes(sha.toString("hex"))).toBe(false);
      expect(file.includes(sha)).toBe(false);
    }
    const keys = await t.accounts.listKeys(accountId);
    expect(keys[0]?.prefix).toBe(apiKey.slice(0, 11));
    const wrong = await new SpecClient(t.baseUrl, `${apiKey}x`).account();
    expect(wrong.raw.includes(apiKey)).toBe(false);
    expect(JSON.stringify(wrong.body).includes(apiKey)).toBe(false);
  });

  it("audio URLs are unguessable and an unknown one is 404", async () => {
    const missing = await fetch(`${t.baseUrl}/audio/${"A".repeat(22)}.mp3`);
    expect(missing.status).toBe(404);
    expect((await fetch(`${t.baseUrl}/audio/..%2Ffangyan.db`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/audio/fangyan.db`)).status).toBe(404);
  });
});

describe("guessing keys", () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startTestServer({ FANGYAN_AUTH_FAILURES_PER_MINUTE: "5" });
  });
  afterAll(() => guarded?.close());

  it("failed authentication is limited per address, then answered 429 even for a plain missing key", async () => {
    const statuses: string[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(String((await new SpecClient(guarded.baseUrl, `fy_${"B".repeat(31)}${i}`).account()).body.error_code));
    }
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill("INVALID_API_KEY"));
    expect(statuses[5]).toBe("RATE_LIMIT_EXCEEDED");
    const missing = await new SpecClient(guarded.baseUrl, undefined).account();
    expect(missing.status).toBe(429);
    expect(missing.encrypted).toBe(false);
    expect(missing.headers.get("retry-after")).toMatch(/^\d+$/);
    // A valid key from the same address still works.
    const { client } = await guarded.newCustomer();
    expect((await client.account()).status).toBe(200);
  });
});
