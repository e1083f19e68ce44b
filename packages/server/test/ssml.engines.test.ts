import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, tempDir } from "./helpers/harness.js";
import { fetchAudio, playedMs } from "./helpers/played.js";
import { data } from "./helpers/spec-client.js";
import { SECONDS_PER_CHAR, type SpeechServer, startSpeechServer, TRAILING_SILENCE_SECONDS } from "./helpers/speech-server.js";

/*
 * SSML in a voice that is not espeak-ng: an OpenAI-compatible speech server
 * (test/helpers/speech-server.ts, 0.1 s of tone per character of input). What
 * docs/protocol.md says such an engine honours, checked at the server's door.
 */

let upstream: SpeechServer;
let t: TestServer;
let dir: string;

beforeAll(async () => {
  upstream = await startSpeechServer();
  dir = await tempDir();
  const voice = {
    id: "remote-ssml",
    name: "HTTP SSML",
    dialect_code: "cmn",
    dialect_label: "普通话",
    engine: { kind: "http", baseUrl: upstream.baseUrl, model: "kokoro", voice: "zf_xiaoxiao", responseFormat: "wav", timeoutMs: 5000 },
  };
  await fs.writeFile(path.join(dir, "voices.json"), JSON.stringify([voice]));
  t = await startTestServer({ FANGYAN_VOICES_FILE: path.join(dir, "voices.json") });
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("SSML in a voice of an HTTP engine", () => {
  it("gets breaks, rate and say-as; pitch and phoneme are not the engine's to honour", async () => {
    const { client } = await t.newCustomer("1");
    const before = upstream.requests.length;
    const text =
      '<speak>你好<break time="1s"/><prosody rate="fast" pitch="x-high"><phoneme alphabet="pinyin" ph="zhong4">重</phoneme>庆</prosody>，<say-as interpret-as="telephone">110</say-as></speak>';
    const answer = await client.tts({ text, voice_id: "remote-ssml" });
    const result = data<{ audio_url: string; billing: { raw_chars: number } }>(answer);
    expect(result.billing.raw_chars).toBe([...text].length);

    // One request per run: its normalised text (a say-as written out, a phoneme's characters as written) and its speed.
    const sent = upstream.requests.slice(before).map(({ input, speed }) => ({ input, speed }));
    expect(sent).toEqual([
      { input: "你好", speed: 1 },
      { input: "重庆", speed: 1.5 },
      { input: "幺幺零", speed: 1 },
    ]);

    // Each run's tone, the break's second between the first two (their own silence cut there), and the
    // engine's own trailing silence after the second (a comma follows it) and the third.
    const expected = (2 + 2 + 3) * SECONDS_PER_CHAR * 1000 + 1000 + 2 * TRAILING_SILENCE_SECONDS * 1000;
    const played = playedMs(await fetchAudio(result.audio_url));
    expect(played).toBeGreaterThan(expected - 30);
    expect(played).toBeLessThan(expected + 400);
  });
});
