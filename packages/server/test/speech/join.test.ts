import { readText } from "@fangyan/frontend";
import { describeMp3, joinMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpeechEngine, SynthesisRequest, SynthesisResult } from "../../src/speech/engine.js";
import { createEspeakEngine } from "../../src/speech/espeak/engine.js";
import { frameSamplesAt } from "../../src/speech/mp3/gapless.js";

/** espeak-ng speaks at 22 050 Hz: MPEG-2 frames of 576 samples. */
const joinFrameSamples = frameSamplesAt(22_050);

import { groupByWeights, sentencesOf } from "../../src/tts/parts.js";
import { decodeMp3, lameInstalled, largestStep } from "../helpers/decode.js";

// Parts of one text synthesized one by one, as the service does in parallel,
// then joined; `lame --decode` is the independent judge of what a player hears.

const TEXT =
  "今天天气很好，我们一起去公园散步吧。公园里有很多人，有的在跑步，有的在打太极拳，还有小朋友在放风筝。春天来了，花都开了，红的、黄的、白的，真漂亮！我们走累了就在湖边坐一会儿。";

let engine: SpeechEngine;
let parts: string[];
let fitted: SynthesisResult[];
let alone: SynthesisResult[];
beforeAll(async () => {
  engine = createEspeakEngine({ threads: 2 });
  parts = groupByWeights(sentencesOf(TEXT), [1, 1, 1]);
  const request = (text: string, followedByMore: boolean): SynthesisRequest => ({
    text: readText(text, { dialect: "cmn" }).engineInput,
    markup: true,
    voice: { espeakVoice: "cmn" },
    speed: 1,
    pitch: 1,
    volume: 1,
    followedByMore,
  });
  fitted = await Promise.all(parts.map((part, i) => engine.synthesize(request(part, i < parts.length - 1))));
  alone = await Promise.all(parts.map((part) => engine.synthesize(request(part, false))));
});
afterAll(() => engine?.close());

describe.skipIf(!lameInstalled)("a long text joined from parts synthesized apart", () => {
  it("is cut at sentence ends into three parts", () => {
    expect(parts).toHaveLength(3);
    expect(parts.join("")).toBe(TEXT);
  });

  it("decodes to the sum of its parts' durations, within one frame a join", async () => {
    const joined = await decodeMp3(joinMp3(fitted.map((part) => part.mp3)));
    const aloneSamples = await Promise.all(alone.map(async (part) => (await decodeMp3(part.mp3)).length));
    const sum = aloneSamples.reduce((a, b) => a + b, 0);
    expect(Math.abs(joined.length - sum)).toBeLessThan(joinFrameSamples * (parts.length - 1));
    // Exactly: every part but the last fills its whole frames, the last its own length.
    const frames = fitted.slice(0, -1).map((part) => describeMp3(part.mp3).frames * joinFrameSamples);
    const last = await decodeMp3(fitted.at(-1)?.mp3 ?? new Uint8Array());
    expect(joined.length).toBe(frames.reduce((a, b) => a + b, 0) + last.length);
  });

  it("plays each part's own sound at its place, with no click at the joins", async () => {
    const joined = await decodeMp3(joinMp3(fitted.map((part) => part.mp3)));
    let offset = 0;
    const joins: number[] = [];
    for (const [i, part] of fitted.entries()) {
      const own = await decodeMp3(part.mp3);
      let worst = 0;
      for (let j = 0; j < own.length; j++) worst = Math.max(worst, Math.abs((joined[offset + j] ?? 0) - (own[j] ?? 0)));
      // The same samples up to rounding in the decoder's overlap at the join.
      expect(worst).toBeLessThanOrEqual(64);
      if (i < fitted.length - 1) {
        offset += describeMp3(part.mp3).frames * joinFrameSamples;
        joins.push(offset);
      }
    }
    const everywhere = largestStep(joined);
    for (const at of joins) expect(largestStep(joined, at - 2 * joinFrameSamples, at + 2 * joinFrameSamples)).toBeLessThan(everywhere / 4);
  });

  it("keeps the pitch: one sample rate and frame size, one Info header for the whole", () => {
    const joined = describeMp3(joinMp3(fitted.map((part) => part.mp3)));
    expect(joined.sampleRate).toBe(alone[0]?.sampleRate);
    expect(joined).toMatchObject({ hasXingHeader: true, xingKind: "Info", samplesPerFrame: joinFrameSamples });
    expect(joined.frames).toBe(fitted.reduce((n, part) => n + describeMp3(part.mp3).frames, 0));
  });
});
