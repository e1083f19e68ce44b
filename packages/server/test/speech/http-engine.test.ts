import fs from "node:fs/promises";
import path from "node:path";
import { describeMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/config.js";
import { startServer } from "../../src/server.js";
import { freePort, startTestServer, type TestServer, tempDir } from "../helpers/harness.js";
import { fetchAudio, playedMs } from "../helpers/played.js";
import { data } from "../helpers/spec-client.js";
import {
  type Behaviour,
  SECONDS_PER_CHAR,
  type SpeechServer,
  startSpeechServer,
  TRAILING_SILENCE_SECONDS,
} from "../helpers/speech-server.js";

const KEY = "sk-upstream-secret-0123456789";

let upstream: SpeechServer;
let t: TestServer;
let dir: string;
let deadPort: number;

/** An HTTP voice of the test server; `model` names its endpoint, so each failure below has its own back-off. */
function voice(id: string, model: string, extra: Record<string, unknown> = {}, group: [string, string] = ["cmn", "普通话"]) {
  return {
    id,
    name: `HTTP ${id}`,
    dialect_code: group[0],
    dialect_label: group[1],
    engine: {
      kind: "http",
      baseUrl: upstream.baseUrl,
      model,
      voice: "zf_xiaoxiao",
      responseFormat: "wav",
      apiKeyEnv: "FANGYAN_TEST_SPEECH_KEY",
      timeoutMs: 1500,
      ...extra,
    },
  };
}

beforeAll(async () => {
  upstream = await startSpeechServer();
  dir = await tempDir();
  deadPort = await freePort();
  const voices = [
    voice("remote-wav", "kokoro"),
    voice("remote-pcm", "kokoro-pcm", { responseFormat: "pcm", sampleRate: 24_000 }),
    voice("remote-sichuan", "kokoro-sc", {}, ["cmn-sichuan", "四川话"]),
    voice("remote-dead", "dead", { baseUrl: `http://127.0.0.1:${deadPort}/v1` }),
    ...["later-parts-fail", "hang", "error500", "error401", "error400", "truncated", "html", "json-200", "silence", "breaker"].map((mode) =>
      voice(`remote-${mode}`, mode),
    ),
  ];
  await fs.writeFile(path.join(dir, "voices.json"), JSON.stringify(voices));
  t = await startTestServer({ FANGYAN_VOICES_FILE: path.join(dir, "voices.json"), FANGYAN_TEST_SPEECH_KEY: KEY });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

interface TtsData {
  audio_url: string;
  billing: { cost_yuan: number; balance_after_yuan: number };
}

describe("a voice served by an OpenAI-compatible speech server", () => {
  it("is listed in its dialect group like any other, a group espeak-ng does not have included", async () => {
    const { client } = await t.newCustomer();
    const { voices } = data<{ voices: Record<string, Array<{ id: string; dialect_code: string }>> }>(await client.voices());
    expect(voices["普通话"]?.map((v) => v.id)).toContain("remote-wav");
    expect(voices["四川话"]).toEqual([{ id: "remote-sichuan", name: "HTTP remote-sichuan", dialect_code: "cmn-sichuan" }]);
  });

  it.each([
    ["WAV", "remote-wav", "kokoro"],
    ["PCM", "remote-pcm", "kokoro-pcm"],
  ])("speaks through the server (%s), is charged, and plays for as long as the server's audio", async (_format, voiceId, model) => {
    const { client } = await t.newCustomer("1");
    const before = upstream.requests.length;
    const answer = await client.tts({ text: "你好，2026年见。", voice_id: voiceId, speed: 1.5 });
    const result = data<TtsData>(answer);
    expect(result.billing).toMatchObject({ cost_yuan: 0.01, balance_after_yuan: 0.99 });
    const sent = upstream.requests.slice(before);
    expect(sent).toHaveLength(1);
    // The front-end's normalised text, the configured model and voice, the key as a bearer token.
    expect(sent[0]).toMatchObject({
      model,
      voice: "zf_xiaoxiao",
      input: "你好，二零二六年见。",
      speed: 1.5,
      authorization: `Bearer ${KEY}`,
    });
    const mp3 = await fetchAudio(result.audio_url);
    expect(describeMp3(mp3)).toMatchObject({ sampleRate: 24_000, channels: 1, hasXingHeader: true });
    const expectedMs = ([..."你好，二零二六年见。"].length * SECONDS_PER_CHAR + TRAILING_SILENCE_SECONDS) * 1000;
    expect(Math.abs(playedMs(mp3) - expectedMs)).toBeLessThan(30);
  });

  it("gives sentence timings for an HTTP voice too: each sentence where the server's speech for it lies", async () => {
    const { client } = await t.newCustomer("1");
    const before = upstream.requests.length;
    const result = data<TtsData & { timings: { sentences: Array<{ text: string; start_ms: number; end_ms: number }> } }>(
      await client.tts({ text: "你好，世界。今天天气很好！再见。", voice_id: "remote-wav", timings: true }),
    );
    // One request to the server per sentence; its "speech" is a tone of 0.1 s a character, then 0.3 s of silence.
    const inputs = upstream.requests.slice(before).map((request) => request.input);
    const { sentences } = result.timings;
    expect(sentences.map((s) => s.text)).toEqual(["你好，世界。", "今天天气很好！", "再见。"]);
    expect(inputs).toHaveLength(3);
    const frameMs = (576 * 1000) / 24_000;
    sentences.forEach((sentence, i) => {
      const toneMs = [...(inputs[i] ?? "")].length * SECONDS_PER_CHAR * 1000;
      expect(Math.abs(sentence.end_ms - sentence.start_ms - toneMs)).toBeLessThanOrEqual(2);
      const next = sentences[i + 1];
      // The silence after each tone, fitted to whole frames for the join.
      if (next) expect(Math.abs(next.start_ms - sentence.end_ms - TRAILING_SILENCE_SECONDS * 1000)).toBeLessThanOrEqual(frameMs + 1);
    });
  });

  it("answers a repeated request from the cache without asking the server again, and charges it", async () => {
    const { client } = await t.newCustomer("1");
    const text = "缓存里的同一句话。";
    data(await client.tts({ text, voice_id: "remote-wav" }));
    const before = upstream.requests.length;
    const again = data<TtsData>(await client.tts({ text, voice_id: "remote-wav" }));
    expect(upstream.requests.length).toBe(before);
    expect(again.billing.balance_after_yuan).toBe(0.98);
  });

  it("streams a long text in parts, joined into one MP3 that plays for the sum of the parts", async () => {
    const { client } = await t.newCustomer("1");
    const sentence = "今天天气很好，我们一起去公园散步吧。";
    const text = sentence.repeat(20); // 360 characters: streamed
    const before = upstream.requests.length;
    const result = data<TtsData>(await client.tts({ text, voice_id: "remote-wav" }));
    const mp3 = await fetchAudio(result.audio_url);
    const parts = upstream.requests.slice(before);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.map((part) => part.input).join("")).toBe(text);
    expect(describeMp3(mp3)).toMatchObject({ sampleRate: 24_000, channels: 1 });
    // Each part is its characters' tone and 0.3 s of silence; a join cuts at most a frame (24 ms) of that silence.
    // A streamed file has no Info tag, so the encoder's delay and padding (48 ms) count in its length.
    const sum = parts.reduce((total, part) => total + ([...part.input].length * SECONDS_PER_CHAR + TRAILING_SILENCE_SECONDS) * 1000, 0);
    expect(playedMs(mp3)).toBeLessThanOrEqual(sum + 30 + 48);
    expect(playedMs(mp3)).toBeGreaterThan(sum - parts.length * 30);
  });
});

describe("when the speech server fails", () => {
  const message = "The speech engine for this voice is unavailable; nothing was charged. Try again later";

  it.each<[string, string, Behaviour]>([
    ["refuses the connection", "remote-dead", "ok"],
    ["does not answer in time", "remote-hang", "hang"],
    ["answers 500", "remote-error500", "error500"],
    ["answers 401", "remote-error401", "error401"],
    ["answers 400", "remote-error400", "error400"],
    ["cuts the body short", "remote-truncated", "truncated"],
    ["sends HTML instead of audio", "remote-html", "html"],
    ["sends JSON labelled as audio", "remote-json-200", "json-200"],
  ])("a request whose server %s fails with TTS_FAILED, HTTP 200, a plain message, and no charge", async (_what, voiceId, behaviour) => {
    upstream.behaviour = behaviour;
    try {
      const { client } = await t.newCustomer("1");
      const answer = await client.tts({ text: "你好。", voice_id: voiceId });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: false, error_code: "TTS_FAILED", message });
      // Nothing of the upstream reaches the client: no URL, port, key, status or body.
      for (const secret of [KEY, "127.0.0.1", String(deadPort), "upstream-proxy", "sk-secret", "500", "401", "queued"]) {
        // (The decrypted answer: the raw envelope is random base64, in which digits like "500" occur by chance.)
        expect(JSON.stringify(answer.body)).not.toContain(secret);
      }
      expect(data<{ balance_yuan: number }>(await client.account()).balance_yuan).toBe(1);
    } finally {
      upstream.behaviour = "ok";
    }
  });

  it("a streamed text whose later part fails: the stream is cut, the charge is given back, and the URL says so", async () => {
    upstream.behaviour = "later-parts-fail";
    try {
      const { client } = await t.newCustomer("1");
      const text = "今天天气很好，我们一起去公园散步吧。".repeat(20);
      const answer = await client.tts({ text, voice_id: "remote-later-parts-fail" });
      const result = data<TtsData>(answer);
      expect(result.billing.balance_after_yuan).toBe(0.92);
      const streaming = await fetch(result.audio_url);
      expect(streaming.status).toBe(200);
      const body = streaming.arrayBuffer();
      upstream.release();
      await expect(body).rejects.toThrow();
      await expect.poll(async () => (await fetch(result.audio_url)).status).toBe(410);
      expect(data<{ balance_yuan: number; total_consumed_yuan: number }>(await client.account())).toMatchObject({
        balance_yuan: 1,
        total_consumed_yuan: 0,
      });
    } finally {
      upstream.behaviour = "ok";
      upstream.release();
    }
  });

  it("silence from the server is no audio, and not charged", async () => {
    upstream.behaviour = "silence";
    try {
      const { client } = await t.newCustomer("1");
      const answer = await client.tts({ text: "你好。", voice_id: "remote-silence" });
      expect(answer.body).toMatchObject({ success: false, error_code: "TTS_FAILED", message: "The speech engine produced no audio" });
      expect(data<{ balance_yuan: number }>(await client.account()).balance_yuan).toBe(1);
    } finally {
      upstream.behaviour = "ok";
    }
  });

  it("is not hammered: after three failures in a row it is not asked for a while, /healthz says so, and a trial brings it back", async () => {
    const { client } = await t.newCustomer("1");
    const sentTo = () => upstream.requests.filter((request) => request.model === "breaker").length;
    upstream.behaviour = "error500";
    try {
      for (let i = 0; i < 3; i++)
        expect((await client.tts({ text: `第${i}句。`, voice_id: "remote-breaker" })).body.error_code).toBe("TTS_FAILED");
      expect(sentTo()).toBe(3);
      const refused = await client.tts({ text: "再来一句。", voice_id: "remote-breaker" });
      expect(refused.body.error_code).toBe("TTS_FAILED");
      expect(sentTo()).toBe(3); // refused at once, without a request
      const health = (await (await fetch(`${t.baseUrl}/healthz`)).json()) as { status: string; engines: Array<Record<string, unknown>> };
      expect(health.status).toBe("ok");
      const breaker = health.engines.find((engine) => String(engine.engine).endsWith("#breaker"));
      expect(breaker).toMatchObject({ kind: "http", status: "down", retry_at: expect.any(String) });
      expect(health.engines.find((engine) => String(engine.engine).endsWith("#kokoro"))).toMatchObject({ status: "ok" });
    } finally {
      upstream.behaviour = "ok";
    }
    // The back-off (5 s) passes; the next request is the trial, and it succeeds.
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    data(await client.tts({ text: "恢复了。", voice_id: "remote-breaker" }));
    expect(sentTo()).toBe(4);
    const health = (await (await fetch(`${t.baseUrl}/healthz`)).json()) as { engines: Array<Record<string, unknown>> };
    expect(health.engines.find((engine) => String(engine.engine).endsWith("#breaker"))).toMatchObject({ status: "ok" });
    expect(data<{ balance_yuan: number }>(await client.account()).balance_yuan).toBe(0.99);
  });
});

describe("starting with an HTTP voice", () => {
  it("stops with the voice and the variable named when the key's variable is not set", async () => {
    const file = path.join(dir, "voices-no-key.json");
    await fs.writeFile(file, JSON.stringify([voice("remote-keyless", "kokoro", { apiKeyEnv: "FANGYAN_TEST_UNSET_KEY" })]));
    const config = parseConfig({
      FANGYAN_DATA_DIR: path.join(dir, "no-key-data"),
      FANGYAN_VOICES_FILE: file,
      FANGYAN_PORT: String(await freePort()),
      FANGYAN_DEMO: "0",
    });
    await expect(startServer(config)).rejects.toThrow(
      "voice remote-keyless takes its API key from the environment variable FANGYAN_TEST_UNSET_KEY, which is not set",
    );
  });
});
