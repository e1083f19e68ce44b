import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./helpers/harness.js";
import { fangyan } from "./helpers/processes.js";
import { data } from "./helpers/spec-client.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const VOICE = "cmn-female-1";

interface Billing {
  raw_chars: number;
  billable_chars: number;
  cost_yuan: number;
  balance_after_yuan: number;
}

describe("POST /tts with SSML", () => {
  it("speaks a document with a pause, a phone number and a phoneme, billed by the text as sent", async () => {
    const { client } = await t.newCustomer("1");
    const text =
      '<speak>请拨打<say-as interpret-as="telephone">13812345678</say-as><break time="800ms"/>我在<phoneme alphabet="pinyin" ph="zhong4">重</phoneme>庆。</speak>';
    const answer = await client.tts({ text, voice_id: VOICE });
    expect(answer.status).toBe(200);
    const result = data<{ audio_url: string; billing: Billing }>(answer);
    expect([...text].length).toBe(146);
    expect(result.billing).toEqual({ raw_chars: 146, billable_chars: 150, cost_yuan: 0.03, balance_after_yuan: 0.97 });
    const audio = await fetch(result.audio_url);
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
  });

  it.each([
    [
      "malformed XML",
      '<speak>\n  你好<break time="1s">世界</speak>',
      { line: 2, column: 31, element: "speak", reason: "unexpected close tag" },
    ],
    ["an attribute out of range", '<speak>你好<prosody rate="5">世界</prosody></speak>', { line: 1, column: 10, element: "prosody" }],
    ["a break over 10 s", '<speak>你好<break time="11s"/></speak>', { element: "break" }],
    ["a phoneme that is not pinyin", '<speak><phoneme alphabet="pinyin" ph="zh0ng">重</phoneme></speak>', { element: "phoneme" }],
    ["a phoneme that is not Jyutping", '<speak><phoneme alphabet="jyutping" ph="zung9">重</phoneme></speak>', { element: "phoneme" }],
    ["an unknown interpret-as", '<speak><say-as interpret-as="verbatim">A</say-as></speak>', { element: "say-as" }],
    ["nesting 40 deep", `<speak>${"<s>".repeat(40)}字${"</s>".repeat(40)}</speak>`, { element: "s" }],
    // 80 000 characters: refused as SSML (step 7) before its length (step 8), and at once.
    [
      "10,000 breaks",
      `<speak>${"<break/>".repeat(10_000)}</speak>`,
      { element: "break", reason: "the breaks add up to more than 60 s of silence" },
    ],
    ["a huge break time", '<speak>a<break time="99999999999s"/></speak>', { element: "break" }],
  ])("answers %s with 400 MISSING_PARAMETER saying where, and charges nothing", async (_what, text, where) => {
    const { client } = await t.newCustomer("1");
    const started = Date.now();
    const answer = await client.tts({ text, voice_id: VOICE });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      success: false,
      error_code: "MISSING_PARAMETER",
      message: expect.stringMatching(/^text is not valid SSML \(line \d+, column \d+/),
      details: { invalid: ["text"], ssml: { line: expect.any(Number), column: expect.any(Number), reason: expect.any(String), ...where } },
    });
    expect(data(await client.account())).toMatchObject({ balance_yuan: 1, total_consumed_yuan: 0 });
  });

  it("reports SSML and a voice control out of range together", async () => {
    const { client } = await t.newCustomer("1");
    const answer = await client.tts({ text: "<speak>a</b>", voice_id: VOICE, speed: 9 });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error_code: "MISSING_PARAMETER", details: { invalid: ["text", "speed"], ssml: { line: 1 } } });
  });

  it("reads a text that does not start with <speak as plain text, tags and all", async () => {
    const { client } = await t.newCustomer("1");
    const answer = await client.tts({ text: "价格<b>便宜</b", voice_id: VOICE });
    expect(answer.status).toBe(200);
  });
});

describe("fangyan read of SSML", () => {
  async function read(text: string) {
    const result = await fangyan(["read", "--voice", VOICE, "--json", text], {});
    return { code: result.code, json: JSON.parse(result.stdout) as Record<string, unknown> };
  }

  it("shows the syllables that will be spoken, a phoneme's reading in place of the characters it covers", async () => {
    const plain = await read("<speak>重庆</speak>");
    expect(plain.json.syllables).toEqual(["chong2", "qing4"]);
    const { json, code } = await read(
      '<speak><phoneme alphabet="pinyin" ph="zhong4">重</phoneme>庆<break time="800ms"/><prosody rate="slow">拨<say-as interpret-as="digits">110</say-as></prosody></speak>',
    );
    expect(code).toBe(0);
    expect(json.syllables).toEqual(["zhong4", "qing4", "bo1", "yi1", "yi1", "ling2"]);
    expect(json.ssml).toEqual({
      leading_ms: 0,
      runs: [
        expect.objectContaining({ text: "重[zhong4]庆", rate: 1, pause_after_ms: 800, syllables: ["zhong4", "qing4"] }),
        expect.objectContaining({ rate: 0.75, pause_after_ms: 0, syllables: ["bo1", "yi1", "yi1", "ling2"] }),
      ],
      elements: [
        { element: "speak", line: 1, column: 1, did: "the document" },
        { element: "phoneme", line: 1, column: 8, did: "read zhong4" },
        { element: "break", line: 1, column: 59, did: "800 ms of silence" },
        { element: "prosody", line: 1, column: 80, did: "rate ×0.75" },
        { element: "say-as", line: 1, column: 102, did: "read as digits: 一一零" },
      ],
    });
  });

  it("prints where a document is refused and exits 1", async () => {
    const { json, code } = await read('<speak><break time="1 minute"/></speak>');
    expect(code).toBe(1);
    expect(json).toEqual({ error: { line: 1, column: 8, element: "break", reason: expect.stringContaining('time="1 minute"') } });
  });
});
