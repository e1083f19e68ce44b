import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTtsRequest } from "../../src/tts/request.js";
import { STREAM_MIN_CHARS } from "../../src/tts/service.js";
import { decodeMp3, lameInstalled } from "../helpers/decode.js";
import { median, trackPitch } from "../helpers/pitch.js";
import { fetchAudio } from "../helpers/played.js";
import { audioIdOf, type ServiceRig, serviceRig } from "../helpers/tts-service.js";

const RATE = 22_050;
// Decoded MP3 keeps a little noise in digital silence: under -50 dBFS counts as silence.
const QUIET = 100;

/** Silent stretches between sounds (not the file's leading or trailing silence), in ms. */
function pauses(pcm: Int16Array, minMs = 150): number[] {
  const found: number[] = [];
  let lastSound = -1;
  for (let i = 0; i < pcm.length; i++) {
    if (Math.abs(pcm[i] ?? 0) <= QUIET) continue;
    if (lastSound >= 0 && i - lastSound - 1 >= (minMs * RATE) / 1000) found.push(((i - lastSound - 1) * 1000) / RATE);
    lastSound = i;
  }
  return found;
}

/** From the first sound to the last, in ms. */
function spokenMs(pcm: Int16Array): number {
  let first = 0;
  let last = pcm.length - 1;
  while (first < pcm.length && Math.abs(pcm[first] ?? 0) <= QUIET) first++;
  while (last > first && Math.abs(pcm[last] ?? 0) <= QUIET) last--;
  return ((last - first) * 1000) / RATE;
}

function rms(pcm: Int16Array): number {
  let sum = 0;
  for (const s of pcm) sum += s * s;
  return Math.sqrt(sum / Math.max(1, pcm.length));
}

let rig: ServiceRig;
beforeAll(async () => {
  rig = await serviceRig();
});
afterAll(() => rig?.close());

async function finished(id: string): Promise<void> {
  while (rig.inProgress.get(id)) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** POST /tts as the service takes it: the plaintext checked by parseTtsRequest, then spoken and charged. */
async function speak(text: string, extra: Record<string, unknown> = {}): Promise<{ pcm: Int16Array; rawChars: number; calls: number }> {
  const before = rig.engine.calls.length;
  const owner = await rig.owner("10");
  const result = await rig.service.speak(owner, parseTtsRequest({ text, voice_id: "cmn-female-1", ...extra }));
  const id = audioIdOf(result.audio_url);
  await finished(id);
  const pcm = await decodeMp3(await fetchAudio(rig.audioUrl(id)));
  return { pcm, rawChars: result.billing.raw_chars, calls: rig.engine.calls.length - before };
}

describe.skipIf(!lameInstalled)("SSML spoken", () => {
  it("makes a <break time> that much silence between the words, and none where there is no break", async () => {
    const plain = await speak("<speak>你好世界</speak>");
    expect(pauses(plain.pcm)).toEqual([]);
    const short = await speak('<speak>你好<break time="800ms"/>世界</speak>');
    const long = await speak('<speak>你好<break time="2s"/>世界</speak>');
    expect(pauses(short.pcm)).toHaveLength(1);
    expect(pauses(short.pcm)[0]).toBeGreaterThan(780);
    expect(pauses(short.pcm)[0]).toBeLessThan(840);
    expect(pauses(long.pcm)[0]).toBeGreaterThan(1980);
    expect(pauses(long.pcm)[0]).toBeLessThan(2040);
    // Two syntheses, one each side of the break.
    expect(short.calls).toBe(2);
  });

  it("joins a prosody span inside a sentence without a pause, and keeps the pause of a sentence end", async () => {
    const inside = await speak('<speak>你好<prosody rate="fast">世界</prosody>朋友</speak>');
    expect(pauses(inside.pcm, 100)).toEqual([]);
    expect(inside.calls).toBe(3);
    const after = await speak('<speak>你好。<prosody rate="fast">世界</prosody></speak>');
    expect(pauses(after.pcm, 100)).toHaveLength(1);
    expect(pauses(after.pcm, 100)[0]).toBeGreaterThan(200);
  });

  it("gives a break before the first word as leading silence, and a strength its length", async () => {
    const { pcm } = await speak('<speak><break time="1s"/>你好<break strength="x-strong"/>世界</speak>');
    let first = 0;
    while (Math.abs(pcm[first] ?? 0) <= QUIET) first++;
    expect((first * 1000) / RATE).toBeGreaterThan(960);
    expect((first * 1000) / RATE).toBeLessThan(1040);
    expect(pauses(pcm)[0]).toBeGreaterThan(960);
    expect(pauses(pcm)[0]).toBeLessThan(1040);
  });

  it("speaks a prosody rate span slower or faster, multiplying the request's own speed", async () => {
    const text = "今天天气很好我们去公园散步";
    const normal = spokenMs((await speak(`<speak>${text}</speak>`)).pcm);
    const slow = spokenMs((await speak(`<speak><prosody rate="x-slow">${text}</prosody></speak>`)).pcm);
    const fast = spokenMs((await speak(`<speak><prosody rate="x-fast">${text}</prosody></speak>`)).pcm);
    expect(slow / normal).toBeGreaterThan(1.5);
    expect(fast / normal).toBeLessThan(0.7);
    const before = rig.engine.calls.length;
    const doubled = spokenMs((await speak(`<speak><prosody rate="x-slow">${text}</prosody></speak>`, { speed: 2 })).pcm);
    expect(rig.engine.calls.slice(before).map((call) => call.speed)).toEqual([1]);
    expect(doubled / normal).toBeGreaterThan(0.85);
    expect(doubled / normal).toBeLessThan(1.15);
  });

  it("raises the pitch of a span and lowers the volume of another, leaving the rest as it was", async () => {
    const { pcm } = await speak(
      '<speak>妈妈<break time="500ms"/><prosody pitch="x-high">妈妈</prosody><break time="500ms"/><prosody volume="x-soft">妈妈</prosody></speak>',
    );
    // Three spans, cut at the two breaks' silence.
    const bounds: number[] = [];
    let quietSince = -1;
    for (let i = 0; i < pcm.length; i++) {
      if (Math.abs(pcm[i] ?? 0) <= QUIET) {
        if (quietSince < 0) quietSince = i;
      } else {
        if (quietSince >= 0 && i - quietSince > 0.3 * RATE) bounds.push(quietSince + Math.floor((i - quietSince) / 2));
        quietSince = -1;
      }
    }
    expect(bounds).toHaveLength(2);
    const [a = 0, b = 0] = bounds;
    const spans = [pcm.subarray(0, a), pcm.subarray(a, b), pcm.subarray(b)];
    const f0 = spans.slice(0, 2).map((span) => median(trackPitch(span, RATE).map((frame) => frame.hz)));
    // x-high is ×1.5 of the engine's pitch setting, which espeak-ng maps onto its own scale: about 3 semitones.
    expect(12 * Math.log2((f0[1] ?? 0) / (f0[0] ?? 1))).toBeGreaterThan(2);
    expect(rms(spans[2] ?? new Int16Array()) / rms(spans[0] ?? new Int16Array())).toBeLessThan(0.4);
  });

  it("speaks a phoneme's reading, a telephone number digit by digit and an alias", async () => {
    const before = rig.engine.calls.length;
    await speak(
      '<speak><phoneme alphabet="pinyin" ph="zhong4">重</phoneme>庆，电话<say-as interpret-as="telephone">13800138000</say-as>，<sub alias="世界卫生组织">WHO</sub></speak>',
    );
    const [call] = rig.engine.calls.slice(before);
    // 重 zhong4 is ts. falling (51), not the ch rising (35) that 重庆 is read with.
    expect(call?.text).toMatch(/^\[\[ts\.[^\]]*51/);
    // 幺 yao1 twice (13800138000 in 3-4-4 groups), and the alias, not the letters W H O.
    expect(call?.text.match(/j'?Au55/g)).toHaveLength(2);
    expect(call?.text).toContain("s.i.51tS;'iE51");
    expect(call?.text).not.toContain("(en)");
  });

  it("bills the text as sent, tags included", async () => {
    const text = '<speak>你好<break time="500ms"/>世界</speak>';
    // <speak> 7 + 你好 2 + <break time="500ms"/> 21 + 世界 2 + </speak> 8
    expect((await speak(text)).rawChars).toBe(40);
  });

  it("streams a long document run by run, with its breaks in place", async () => {
    const sentence = "今天天气很好，我们一起去公园散步吧。";
    const text = `<speak>${Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? sentence : `<prosody rate="fast">${sentence}</prosody>`)).join('<break time="700ms"/>')}</speak>`;
    expect([...text].length).toBeGreaterThan(STREAM_MIN_CHARS);
    const { pcm, calls } = await speak(text);
    expect(calls).toBe(8);
    const breaks = pauses(pcm, 600);
    expect(breaks).toHaveLength(7);
    for (const ms of breaks) {
      expect(ms).toBeGreaterThan(650);
      expect(ms).toBeLessThan(760);
    }
  });

  it("refuses a document with nothing to speak, charging nothing", async () => {
    const owner = await rig.owner("1");
    await expect(
      rig.service.speak(owner, parseTtsRequest({ text: '<speak><break time="1s"/></speak>', voice_id: "cmn-female-1" })),
    ).rejects.toMatchObject({
      code: "TTS_FAILED",
      message: "The text contains nothing to speak",
    });
    expect(await rig.store.ledger(owner.account.id, { limit: 5 })).toHaveLength(1);
  });
});
