import fs from "node:fs/promises";
import { describeMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frameSamplesAt } from "../../src/speech/mp3/gapless.js";

/** espeak-ng speaks at 22 050 Hz: MPEG-2 frames of 576 samples. */
const joinFrameSamples = frameSamplesAt(22_050);

import { decodeMp3, lameInstalled, largestStep } from "../helpers/decode.js";
import { audioIdOf, type ServiceRig, serviceRig, ttsParams } from "../helpers/tts-service.js";

const TEXT =
  "今天天气很好，我们一起去公园散步吧。公园里有很多人，有的在跑步，有的在打太极拳，还有小朋友在放风筝。春天来了，花都开了，红的、黄的、白的，真漂亮！我们走累了就在湖边坐一会儿。";

// Three times the paragraph: 261 characters, long enough to split, too short to stream.
const LONGER = TEXT.repeat(3);

let rig: ServiceRig;
beforeAll(async () => {
  rig = await serviceRig();
});
afterAll(() => rig?.close());

describe("a text of several sentences on an idle engine", () => {
  it("is spoken in one part per thread, at once, and stored as one file with one Info header", async () => {
    const owner = await rig.owner("1");
    const before = rig.engine.calls.length;
    const result = await rig.service.speak(owner, ttsParams(LONGER));
    const calls = rig.engine.calls.slice(before);
    expect(calls).toHaveLength(2);
    expect(calls.map((call) => call.followedByMore === true)).toEqual([true, false]);
    const id = audioIdOf(result.audio_url);
    const mp3 = describeMp3(new Uint8Array(await fs.readFile(rig.audio.fileOf(id))));
    expect(mp3).toMatchObject({ hasXingHeader: true, xingKind: "Info", encoderDelay: 576 });
    expect(mp3.xingFrames).toBe(mp3.frames);
    expect(mp3.durationMs).toBeGreaterThan(45_000);
  });
});

describe.skipIf(!lameInstalled)("a text spoken in one synthesis on an idle engine", () => {
  it("has its encoding shared by two threads and joined without a gap or a click", async () => {
    const owner = await rig.owner("1");
    const encodedBefore = rig.engine.encoded.length;
    const result = await rig.service.speak(owner, ttsParams(TEXT));
    const request = rig.engine.calls.at(-1);
    if (!request || !rig.engine.synthesizePcm) throw new Error("no synthesis seen");
    const halves = rig.engine.encoded.slice(encodedBefore);
    const { pcm } = await rig.engine.synthesizePcm(request);
    expect(halves).toHaveLength(2);
    expect(Math.min(...halves) / pcm.length).toBeGreaterThan(0.25);
    const id = audioIdOf(result.audio_url);
    const file = new Uint8Array(await fs.readFile(rig.audio.fileOf(id)));
    const whole = await decodeMp3(file);
    const alone = await decodeMp3((await rig.engine.synthesize(request)).mp3);

    expect(describeMp3(file)).toMatchObject({ hasXingHeader: true, xingKind: "Info", encoderDelay: 576 });
    // Cut once, inside a pause: the same length within one frame, and no step larger than the unsplit file's.
    expect(Math.abs(whole.length - pcm.length)).toBeLessThan(joinFrameSamples);
    expect(Math.abs(whole.length - alone.length)).toBeLessThan(joinFrameSamples);
    expect(largestStep(whole)).toBeLessThanOrEqual(largestStep(alone) * 1.1);
  });
});
