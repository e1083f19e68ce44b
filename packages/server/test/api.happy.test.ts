import { describeMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./helpers/harness.js";
import { data } from "./helpers/spec-client.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

interface TtsData {
  audio_url: string;
  billing: { raw_chars: number; billable_chars: number; cost_yuan: number; balance_after_yuan: number };
}

describe("a customer using the API with a client written from the spec", () => {
  it("lists voices grouped by Chinese dialect, with dialect codes and genders", async () => {
    const { client } = await t.newCustomer();
    const answer = await client.voices();
    expect(answer.status).toBe(200);
    expect(answer.encrypted).toBe(true);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    const { voices } = data<{ voices: Record<string, Array<Record<string, string>>> }>(answer);
    expect(Object.keys(voices)).toEqual(expect.arrayContaining(["粤语", "普通话"]));
    for (const [label, code] of [
      ["粤语", "yue"],
      ["普通话", "cmn"],
    ] as const) {
      const group = voices[label] ?? [];
      expect(group.length).toBeGreaterThanOrEqual(2);
      for (const voice of group) {
        expect(voice).toMatchObject({ id: expect.any(String), name: expect.any(String), dialect_code: code });
        expect(["female", "male"]).toContain(voice.gender);
      }
    }
  });

  it("reads the account: name, balance, totals and the price of its tier", async () => {
    const { client } = await t.newCustomer("12.5", "小明");
    const answer = await client.account();
    expect(answer.status).toBe(200);
    expect(data(answer)).toEqual({
      name: "小明",
      balance_yuan: 12.5,
      total_recharge_yuan: 12.5,
      total_consumed_yuan: 0,
      price_per_wan_yuan: 2,
    });
  });

  it.each([
    ["Cantonese", "yue-female-1", "你好，世界！今日天氣好好。"],
    ["Mandarin", "cmn-female-1", "你好，世界！今天天气很好。"],
  ])("turns text into a playable %s MP3 and charges 0.01 yuan for it", async (_dialect, voiceId, text) => {
    const { client } = await t.newCustomer("1");
    const answer = await client.tts({ text, voice_id: voiceId });
    expect(answer.status).toBe(200);
    const result = data<TtsData>(answer);
    expect(result.billing).toEqual({ raw_chars: [...text].length, billable_chars: 50, cost_yuan: 0.01, balance_after_yuan: 0.99 });
    expect(result.audio_url).toMatch(new RegExp(`^${t.baseUrl}/audio/[A-Za-z0-9_-]{22}\\.mp3$`));

    const audio = await fetch(result.audio_url);
    expect(audio.status).toBe(200);
    expect(audio.headers.get("content-type")).toBe("audio/mpeg");
    expect(audio.headers.get("accept-ranges")).toBe("bytes");
    expect(audio.headers.get("cache-control")).toMatch(/max-age=604800/);
    const bytes = new Uint8Array(await audio.arrayBuffer());
    expect(Number(audio.headers.get("content-length"))).toBe(bytes.length);
    const mp3 = describeMp3(bytes);
    expect(mp3.frames).toBeGreaterThan(10);
    expect(mp3.channels).toBe(1);
    expect(mp3.sampleRate).toBe(22050);
    expect(mp3.hasXingHeader).toBe(true);
    expect(mp3.durationMs).toBeGreaterThan(1000);

    expect(data(await client.account())).toMatchObject({ balance_yuan: 0.99, total_consumed_yuan: 0.01 });
  });

  it("serves byte ranges of the audio with 206", async () => {
    const { client } = await t.newCustomer("1");
    const { audio_url } = data<TtsData>(await client.tts({ text: "早晨", voice_id: "yue-male-1" }));
    const whole = new Uint8Array(await (await fetch(audio_url)).arrayBuffer());
    const part = await fetch(audio_url, { headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${whole.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(whole.slice(100, 200));
  });

  it("bills 51 characters as 100 and applies the voice controls", async () => {
    const { client } = await t.newCustomer("1");
    const text = "一".repeat(51);
    const slow = data<TtsData>(await client.tts({ text, voice_id: "cmn-male-1", speed: 0.5 }));
    const fast = data<TtsData>(await client.tts({ text, voice_id: "cmn-male-1", speed: 2 }));
    expect(slow.billing).toMatchObject({ raw_chars: 51, billable_chars: 100, cost_yuan: 0.02 });
    expect(fast.billing.balance_after_yuan).toBe(0.96);
    const duration = async (url: string) => describeMp3(new Uint8Array(await (await fetch(url)).arrayBuffer())).durationMs;
    expect(await duration(slow.audio_url)).toBeGreaterThan((await duration(fast.audio_url)) * 1.5);
  });

  it("counts characters as code points: 𠮷 is one", async () => {
    const { client } = await t.newCustomer("1");
    const result = data<TtsData>(await client.tts({ text: "𠮷野家", voice_id: "cmn-female-1" }));
    expect(result.billing.raw_chars).toBe(3);
  });

  it("ignores unknown fields in the request", async () => {
    const { client } = await t.newCustomer("1");
    const answer = await client.tts({ text: "你好", voice_id: "cmn-female-1", format: "wav", extra: { a: 1 } });
    expect(data<TtsData>(answer).billing.cost_yuan).toBe(0.01);
  });

  it("prices by the tier of the total recharge at the moment of the request", async () => {
    const customer = await t.newCustomer("499.99");
    const before = data<TtsData>(await customer.client.tts({ text: "你好", voice_id: "cmn-female-1" }));
    expect(before.billing.cost_yuan).toBe(0.01);
    await t.accounts.recharge(customer.accountId, "0.01");
    expect(data(await customer.client.account())).toMatchObject({ price_per_wan_yuan: 1.9 });
    const after = data<TtsData>(await customer.client.tts({ text: "你好", voice_id: "cmn-female-1" }));
    expect(after.billing.cost_yuan).toBe(0.0095);
    await t.accounts.recharge(customer.accountId, "1500");
    const top = data<TtsData>(await customer.client.tts({ text: "你好", voice_id: "cmn-female-1" }));
    expect(top.billing.cost_yuan).toBe(0.00875);
    expect(top.billing.balance_after_yuan).toBe(1999.97175);
  });

  it("answers GET /healthz with 200 and a request id on every response", async () => {
    const health = await fetch(`${t.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get("x-request-id")).toMatch(/^req_/);
  });
});
