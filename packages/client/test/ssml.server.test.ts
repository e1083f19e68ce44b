import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describeMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeSsml, Fangyan, isSsml, MissingParameterError } from "../src/index.js";
import { FY_BIN, type RealServer, run, startRealServer } from "./helpers/server.js";

/* SSML through the SDK and `fy say --ssml`, against the real server. */

let server: RealServer;
let scratch: string;
beforeAll(async () => {
  server = await startRealServer();
  scratch = await mkdtemp(path.join(os.tmpdir(), "fy-ssml-"));
});
afterAll(async () => {
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function user() {
  const customer = await server.customer("10");
  const cwd = await mkdtemp(path.join(scratch, "user-"));
  const env = { FANGYAN_API_KEY: customer.apiKey, FANGYAN_BASE_URL: server.baseUrl };
  return {
    cwd,
    sdk: new Fangyan({ apiKey: customer.apiKey, baseUrl: server.baseUrl }),
    fy: (args: string[]) => run([FY_BIN, ...args], env, { cwd }),
  };
}

describe("the SDK and SSML", () => {
  it("sends ssml: true as a <speak> document, billed as sent, and its break lengthens the audio", async () => {
    const { sdk } = await user();
    const plain = await sdk.tts({ text: "你好世界", voiceId: "cmn-female-1" });
    const paused = await sdk.tts({ text: '你好<break time="1500ms"/>世界', voiceId: "cmn-female-1", ssml: true });
    expect(paused.billing.rawChars).toBe([...'<speak>你好<break time="1500ms"/>世界</speak>'].length);
    const plainMs = describeMp3(await sdk.download(plain.audioUrl)).durationMs;
    const pausedMs = describeMp3(await sdk.download(paused.audioUrl)).durationMs;
    expect(pausedMs - plainMs).toBeGreaterThan(1300);
  });

  it("throws MissingParameterError with where the SSML went wrong, charging nothing", async () => {
    const { sdk } = await user();
    const error = await sdk
      .tts({ text: '<speak>你好<prosody rate="9">世界</prosody></speak>', voiceId: "cmn-female-1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingParameterError);
    expect(error).toMatchObject({ invalid: ["text"], ssml: { line: 1, column: 10, element: "prosody" } });
    expect((await sdk.account()).totalConsumedYuan).toBe(0);
  });

  it("never splits an SSML document in ttsLong, and escapes text put inside one", async () => {
    const { sdk } = await user();
    expect(isSsml(" <speak>")).toBe(true);
    const sentence = `${escapeSsml("A&B <公司> 说")}今天天气很好。`;
    const text = `<speak>${Array.from({ length: 30 }, () => sentence).join('<break time="100ms"/>')}</speak>`;
    const result = await sdk.ttsLong({ text, voiceId: "cmn-female-1" });
    expect(result.parts).toHaveLength(1);
    expect(result.rawChars).toBe([...text].length);
  });
});

describe("fy say --ssml", () => {
  it("wraps the text in <speak>, names the file after its words and saves the audio", async () => {
    const { fy, cwd } = await user();
    const done = await fy([
      "say",
      "--ssml",
      "--json",
      "-v",
      "cmn-female-1",
      '请拨打<say-as interpret-as="telephone">13812345678</say-as><break time="1s"/>谢谢',
    ]);
    expect(done.stderr).toBe("");
    expect(done.code).toBe(0);
    const json = JSON.parse(done.stdout) as { file: string; raw_chars: number; duration_ms: number };
    expect(path.basename(json.file)).toBe("请拨打-13812345678-谢谢.mp3");
    expect(json.raw_chars).toBe(
      [...'<speak>请拨打<say-as interpret-as="telephone">13812345678</say-as><break time="1s"/>谢谢</speak>'].length,
    );
    // 11 digits, a break of a second and two words: well over 3 s.
    expect(describeMp3(await readFile(path.join(cwd, path.basename(json.file)))).durationMs).toBeGreaterThan(3000);
  });

  it("reports refused SSML in one line with its line and column, exit 6", async () => {
    const { fy } = await user();
    const done = await fy(["say", "--ssml", "-v", "cmn-female-1", '<speak><phoneme alphabet="pinyin" ph="chong9">重</phoneme></speak>']);
    expect(done.code).toBe(6);
    expect(done.stderr).toMatch(
      /^fy: Text is not valid SSML \(line 1, column 8, in <phoneme>\): ph="chong9" is not valid pinyin with tone digits \[req_/,
    );
  });
});
