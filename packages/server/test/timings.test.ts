import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describeMp3 } from "@fangyan/mp3";
import { sentencesOf, type Timing, type TtsResult } from "@fangyan/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STREAM_MIN_CHARS } from "../src/tts/service.js";
import { decodeMp3, decodeWithFfmpeg, lameInstalled } from "./helpers/decode.js";
import { startTestServer, type TestServer } from "./helpers/harness.js";
import { data } from "./helpers/spec-client.js";

const SHORT = "今天天气很好，我们一起去公园散步吧。公园里有很多人！你喜欢放风筝吗？我们走累了就在湖边坐一会儿。";
const PARAGRAPH =
  "春天来了，花都开了，红的、黄的、白的，真漂亮！公园里有很多人，有的在跑步，有的在打太极拳。小朋友在草地上放风筝，风筝飞得很高。" +
  "我们走累了，就在湖边的长椅上坐一会儿。湖里有几只小船，船上的人在说说笑笑。太阳慢慢落山了，天边一片红色。我们该回家了，明天再来吧！";
const LONG = `${PARAGRAPH.repeat(5)}最后一句话在这里。`;

/** One MP3 frame at 22,050 Hz (576 samples): what timings must agree with the decoded audio within. */
const FRAME_MS = 26.2;
const RATE = 22_050;
// Louder than this in the decoded MP3 counts as sound: above the encoder's noise in a pause.
const LOUD = 200;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ FANGYAN_AUDIO_RETENTION_DAYS: "7" });
});
afterAll(() => t?.close());

async function speakTimed(text: string, voice = "cmn-female-1", extra: Record<string, unknown> = {}) {
  const { client } = await t.newCustomer("10");
  return data<TtsResult>(await client.tts({ text, voice_id: voice, timings: true, ...extra }));
}

const ms = (sample: number) => (sample * 1000) / RATE;
const sample = (at: number) => Math.round((at * RATE) / 1000);

/**
 * Where each sentence's sound begins and ends in the decoded audio: the first
 * and the last loud sample between the middles of the pauses around it.
 */
function heard(pcm: Int16Array, sentences: readonly Timing[]): Array<{ start: number; end: number }> {
  return sentences.map((sentence, i) => {
    const before = sentences[i - 1];
    const after = sentences[i + 1];
    const from = before ? sample((before.end_ms + sentence.start_ms) / 2) : 0;
    const to = after ? sample((sentence.end_ms + after.start_ms) / 2) : pcm.length;
    let first = from;
    while (first < to && Math.abs(pcm[first] ?? 0) <= LOUD) first++;
    let last = to - 1;
    while (last > first && Math.abs(pcm[last] ?? 0) <= LOUD) last--;
    return { start: ms(first), end: ms(last + 1) };
  });
}

/** Checks the timings against the audio as `lame --decode` gives it; returns the largest difference, in ms. */
async function largestError(result: TtsResult): Promise<number> {
  const mp3 = new Uint8Array(await (await fetch(result.audio_url)).arrayBuffer());
  const pcm = await decodeMp3(mp3);
  const sentences = result.timings?.sentences ?? [];
  const sounds = heard(pcm, sentences);
  let largest = 0;
  sentences.forEach((sentence, i) => {
    const sound = sounds[i];
    if (!sound) throw new Error(`no sound found for sentence ${i}`);
    largest = Math.max(largest, Math.abs(sound.start - sentence.start_ms), Math.abs(sound.end - sentence.end_ms));
  });
  // The last sentence ends before the audio does, and every pause between sentences is silent.
  expect(sentences.at(-1)?.end_ms ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(ms(pcm.length));
  return largest;
}

interface Cue {
  index: number;
  start_ms: number;
  end_ms: number;
  text: string;
}

/** A strict reader of the subset of WebVTT / SRT the service writes: numbered cues, one line each. */
function parseCues(file: string, kind: "vtt" | "srt"): Cue[] {
  const separator = kind === "vtt" ? "\\." : ",";
  const clock = `(\\d{2}):([0-5]\\d):([0-5]\\d)${separator}(\\d{3})`;
  const timing = new RegExp(`^${clock} --> ${clock}$`);
  let blocks = file.split("\n\n").filter((block) => block.trim() !== "");
  if (kind === "vtt") {
    expect(blocks[0]).toBe("WEBVTT");
    blocks = blocks.slice(1);
  }
  return blocks.map((block) => {
    const [index, times, text, ...more] = block.split("\n");
    expect(more.filter((line) => line !== "")).toEqual([]);
    const match = timing.exec(times ?? "");
    if (!match) throw new Error(`not a ${kind} cue timing: ${times}`);
    const n = match.slice(1).map(Number);
    const at = (h = 0, m = 0, s = 0, f = 0) => ((h * 60 + m) * 60 + s) * 1000 + f;
    return { index: Number(index), start_ms: at(n[0], n[1], n[2], n[3]), end_ms: at(n[4], n[5], n[6], n[7]), text: text ?? "" };
  });
}

describe.runIf(lameInstalled || process.env.CI === "true")("sentence timings", () => {
  it("a short text gets every sentence where the decoded MP3 speaks it, within one frame", async () => {
    const result = await speakTimed(SHORT);
    const sentences = result.timings?.sentences ?? [];
    expect(sentences.map((s) => s.text)).toEqual(sentencesOf(SHORT));
    // espeak-ng's command-line build reports no character events: none are made up.
    expect(result.timings).not.toHaveProperty("chars");
    for (const [i, s] of sentences.entries()) {
      expect(s.end_ms).toBeGreaterThan(s.start_ms);
      if (i > 0) expect(s.start_ms).toBeGreaterThan(sentences[i - 1]?.end_ms ?? 0);
    }
    expect(await largestError(result)).toBeLessThanOrEqual(FRAME_MS);
  });

  it("a long text of many joined parts keeps every sentence within one frame of the decoded audio", async () => {
    expect([...LONG].length).toBeGreaterThan(600);
    expect([...LONG].length).toBeGreaterThan(STREAM_MIN_CHARS);
    const result = await speakTimed(LONG, "yue-female-1");
    expect(result.timings?.sentences.map((s) => s.text)).toEqual(sentencesOf(LONG));
    const mp3 = new Uint8Array(await (await fetch(result.audio_url)).arrayBuffer());
    // Made whole before the answer (the timings of the last sentence are known only then), so it carries its header.
    expect(describeMp3(mp3).hasXingHeader).toBe(true);
    expect(await largestError(result)).toBeLessThanOrEqual(FRAME_MS);
  });

  it("a WAV asked for with timings has each sentence where its samples sound, within a millisecond", async () => {
    const result = await speakTimed(SHORT, "yue-female-1", { format: "wav" });
    expect(result.audio_url).toMatch(/\.wav$/);
    expect(result.subtitles?.vtt).toBe(result.audio_url.replace(/\.wav$/, ".vtt"));
    const wav = Buffer.from(await (await fetch(result.audio_url)).arrayBuffer());
    const data = wav.indexOf("data") + 8;
    const rate = wav.readUInt32LE(24);
    const pcm = new Int16Array(wav.buffer.slice(wav.byteOffset + data, wav.byteOffset + wav.length - ((wav.length - data) % 2)));
    const sentences = result.timings?.sentences ?? [];
    expect(sentences.map((s) => s.text)).toEqual(sentencesOf(SHORT));
    for (const [i, sentence] of sentences.entries()) {
      const from = Math.round(((i > 0 ? (sentences[i - 1]?.end_ms ?? 0) : 0) * rate) / 1000);
      let first = from;
      while (Math.abs(pcm[first] ?? 0) <= 32) first++;
      expect(Math.abs((first * 1000) / rate - sentence.start_ms)).toBeLessThanOrEqual(1);
    }
  });

  it("SSML: each sentence and each stretch between breaks where the decoded MP3 speaks it, the breaks' silence between them", async () => {
    const ssml =
      '<speak>请拨打<say-as interpret-as="telephone">13812345678</say-as>。<break time="800ms"/>' +
      '<prosody rate="slow">我们明天见。</prosody>今天天气很好！<break time="1500ms"/>再见。</speak>';
    const result = await speakTimed(ssml);
    const sentences = result.timings?.sentences ?? [];
    // The tags are not shown; the telephone number is shown as it is read.
    expect(sentences.map((s) => s.text)).toEqual([expect.stringMatching(/^请拨打/), "我们明天见。", "今天天气很好！", "再见。"]);
    for (const s of sentences) expect(s.text).not.toMatch(/[<>]/);
    expect(await largestError(result)).toBeLessThanOrEqual(FRAME_MS);
    // A break is silence of its length between the sound before and after it (the engine's own pause is cut next to it).
    const gap = (i: number) => (sentences[i + 1]?.start_ms ?? 0) - (sentences[i]?.end_ms ?? 0);
    expect(gap(0)).toBeGreaterThanOrEqual(800 - FRAME_MS);
    expect(gap(0)).toBeLessThanOrEqual(800 + 2 * FRAME_MS);
    expect(gap(2)).toBeGreaterThanOrEqual(1500 - FRAME_MS);
    expect(gap(2)).toBeLessThanOrEqual(1500 + 2 * FRAME_MS);
  });

  it("SSML in Ogg Opus with timings: the decoded file is as long as the timings say, breaks included", async () => {
    const ssml = '<speak>你好。<break time="2s"/>再见。</speak>';
    const result = await speakTimed(ssml, "yue-male-1", { format: "opus" });
    expect(result.audio_url).toMatch(/\.opus$/);
    const sentences = result.timings?.sentences ?? [];
    expect(sentences.map((s) => s.text)).toEqual(["你好。", "再见。"]);
    expect((sentences[1]?.start_ms ?? 0) - (sentences[0]?.end_ms ?? 0)).toBeGreaterThanOrEqual(2000 - 20);
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "fangyan-ssml-opus-")), "a.opus");
    await fs.writeFile(file, new Uint8Array(await (await fetch(result.audio_url)).arrayBuffer()));
    const decoded = decodeWithFfmpeg(file);
    expect(decoded.codec).toBe("opus");
    expect((decoded.samples * 1000) / decoded.sampleRate).toBeGreaterThan(sentences[1]?.end_ms ?? Number.POSITIVE_INFINITY);
    await fs.rm(path.dirname(file), { recursive: true, force: true });
  });

  it("costs the same as without timings, and a text without them gets none", async () => {
    const timed = await speakTimed(SHORT);
    const { client } = await t.newCustomer("10");
    const plain = data<TtsResult>(await client.tts({ text: SHORT, voice_id: "cmn-female-1", timings: false }));
    expect(timed.billing).toEqual(plain.billing);
    expect(plain).not.toHaveProperty("timings");
    expect(plain).not.toHaveProperty("subtitles");
  });

  it("a repeated request is answered from the cache with the same timings and its own subtitle files", async () => {
    const first = await speakTimed(SHORT, "yue-female-1");
    const again = await speakTimed(SHORT, "yue-female-1");
    expect(again.timings).toEqual(first.timings);
    expect(again.subtitles?.vtt).not.toBe(first.subtitles?.vtt);
    const vtt = await fetch(again.subtitles?.vtt ?? "");
    expect(vtt.status).toBe(200);
    expect(parseCues(await vtt.text(), "vtt").map((cue) => cue.start_ms)).toEqual(first.timings?.sentences.map((s) => s.start_ms));
  });
});

describe("subtitle files", () => {
  it("are served beside the audio as valid WebVTT and SRT holding the answer's timings", async () => {
    const result = await speakTimed(`${SHORT}\n第二段<b>不是</b>标记 --> 也不是 & 符号。`);
    const id = path.basename(result.audio_url, ".mp3");
    expect(result.subtitles?.vtt).toBe(`${t.baseUrl}/audio/${id}.vtt`);
    expect(result.subtitles?.srt).toBe(`${t.baseUrl}/audio/${id}.srt`);
    const sentences = result.timings?.sentences ?? [];

    const vtt = await fetch(result.subtitles?.vtt ?? "");
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    const vttCues = parseCues(await vtt.text(), "vtt");
    expect(vttCues.map((cue) => [cue.start_ms, cue.end_ms])).toEqual(sentences.map((s) => [s.start_ms, s.end_ms]));
    expect(vttCues.map((cue) => cue.index)).toEqual(sentences.map((_, i) => i + 1));
    expect(vttCues.at(-1)?.text).toBe("第二段&lt;b&gt;不是&lt;/b&gt;标记 --&gt; 也不是 &amp; 符号。");

    const srt = await fetch(result.subtitles?.srt ?? "");
    expect(srt.status).toBe(200);
    expect(srt.headers.get("content-type")).toBe("application/x-subrip; charset=utf-8");
    const srtCues = parseCues(await srt.text(), "srt");
    expect(srtCues.map((cue) => [cue.start_ms, cue.end_ms])).toEqual(sentences.map((s) => [s.start_ms, s.end_ms]));
    expect(srtCues.map((cue) => cue.text)).toEqual(sentences.map((s) => s.text));

    // The timings kept for replays are not served.
    expect((await fetch(`${t.baseUrl}/audio/${id}.json`)).status).toBe(404);
  });

  it("answer 404 once past the audio's retention period, like the audio", async () => {
    const result = await speakTimed("你好，世界。再见！");
    const id = path.basename(result.audio_url, ".mp3");
    const dir = path.join(t.dataDir, "audio");
    const age = async (days: number) => {
      const when = new Date(Date.now() - days * 86_400_000);
      for (const file of [`${id}.mp3`, `${id}.vtt`, `${id}.srt`]) await fs.utimes(path.join(dir, file), when, when);
    };
    await age(6.9);
    for (const url of [result.audio_url, result.subtitles?.vtt, result.subtitles?.srt]) expect((await fetch(url ?? "")).status).toBe(200);
    await age(7.1);
    for (const url of [result.audio_url, result.subtitles?.vtt, result.subtitles?.srt]) expect((await fetch(url ?? "")).status).toBe(404);
  });

  it("a timings field that is not a boolean is MISSING_PARAMETER, and nothing is charged", async () => {
    const { client } = await t.newCustomer("1");
    const answer = await client.tts({ text: "你好", voice_id: "cmn-female-1", timings: "yes" });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, error_code: "MISSING_PARAMETER", details: { invalid: ["timings"] } });
    expect(answer.body.message).toContain("timings must be true or false");
    expect(data<{ balance_yuan: number }>(await client.account()).balance_yuan).toBe(1);
  });
});
