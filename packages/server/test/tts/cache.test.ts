import fs from "node:fs/promises";
import { describeMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AudioCache } from "../../src/tts/audio-cache.js";
import type { TtsParams } from "../../src/tts/request.js";
import { audioIdOf, type ServiceRig, serviceRig, ttsParams } from "../helpers/tts-service.js";

const TEXT = "今天天气很好，我们一起去公园散步吧。";

const params = (overrides: Partial<TtsParams> = {}) => ttsParams(TEXT, overrides);

let rig: ServiceRig;
beforeAll(async () => {
  rig = await serviceRig({ cache: new AudioCache(64 * 1024 * 1024) });
});
afterAll(() => rig?.close());

describe("finished audio answered from the cache", () => {
  it("a repeated identical request skips the engine, is charged again, and gets its own playable audio", async () => {
    const owner = await rig.owner("1");
    const first = await rig.service.speak(owner, params());
    const callsAfterFirst = rig.engine.calls.length;
    const second = await rig.service.speak(owner, params());

    expect(rig.engine.calls.length).toBe(callsAfterFirst);
    expect(second.audio_url).not.toBe(first.audio_url);
    expect(second.billing.cost_yuan).toBe(first.billing.cost_yuan);
    expect(second.billing.balance_after_yuan).toBeCloseTo(first.billing.balance_after_yuan - first.billing.cost_yuan, 6);
    const ledger = await rig.store.ledger(owner.account.id, { limit: 10 });
    expect(ledger.filter((entry) => entry.kind === "charge").map((entry) => entry.audioId)).toEqual([
      audioIdOf(second.audio_url),
      audioIdOf(first.audio_url),
    ]);

    const [a, b] = await Promise.all([first, second].map((r) => fs.readFile(rig.audio.fileOf(audioIdOf(r.audio_url)))));
    expect(b).toEqual(a);
    const mp3 = describeMp3(new Uint8Array(b ?? []));
    expect(mp3.frames).toBeGreaterThan(10);
    expect(mp3.xingFrames).toBe(mp3.frames);
  });

  it.each([
    ["speed", { speed: 1.5 }],
    ["pitch", { pitch: 0.8 }],
    ["volume", { volume: 0.5 }],
    ["voice", { voiceId: "cmn-male-1" }],
    ["text", { text: `${TEXT}好`, rawChars: [...TEXT].length + 1 }],
  ])("a change of %s is synthesized afresh", async (_field, change) => {
    const owner = await rig.owner("1");
    await rig.service.speak(owner, params());
    const before = rig.engine.calls.length;
    await rig.service.speak(owner, params(change));
    expect(rig.engine.calls.length).toBe(before + 1);
  });
});

describe("the cache's size bound", () => {
  it("evicts the least recently used audio once over its byte bound", () => {
    const cache = new AudioCache(10);
    cache.set("a", new Uint8Array(4));
    cache.set("b", new Uint8Array(4));
    expect(cache.get("a")).toBeDefined(); // a is now the most recent
    cache.set("c", new Uint8Array(4));
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
    expect(cache.get("c")).toBeDefined();
    expect(cache.size).toEqual({ entries: 2, bytes: 8 });
  });

  it("does not keep a file larger than the whole bound", () => {
    const cache = new AudioCache(10);
    cache.set("a", new Uint8Array(4));
    cache.set("big", new Uint8Array(11));
    expect(cache.get("big")).toBeUndefined();
    expect(cache.size).toEqual({ entries: 1, bytes: 4 });
  });
});
