import fs from "node:fs/promises";
import { describeMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STREAM_MIN_CHARS } from "../../src/tts/service.js";
import { audioIdOf, type ServiceRig, serviceRig, ttsParams } from "../helpers/tts-service.js";

const SENTENCES =
  "今天天气很好，我们一起去公园散步吧。公园里有很多人，有的在跑步，有的在打太极拳，还有小朋友在放风筝。春天来了，花都开了，红的、黄的、白的，真漂亮！我们走累了就在湖边坐一会儿。";
const LONG = SENTENCES.repeat(10); // 870 characters: the rest takes a second or more after the first sentence

async function finished(rig: ServiceRig, id: string): Promise<void> {
  while (rig.inProgress.get(id)) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Holds every part after the first at the engine until `release()`, so "still being produced" is a fact, not a guess. */
function holdTheRest(rig: ServiceRig): { release: () => void } {
  let release: () => void = () => {};
  rig.engine.holdUntil = new Promise((resolve) => {
    release = resolve;
  });
  const start = rig.engine.calls.length;
  rig.engine.holdWhen = (_request, call) => call > start + 1;
  return {
    release: () => {
      rig.engine.holdWhen = undefined;
      release();
    },
  };
}

let rig: ServiceRig;
beforeAll(async () => {
  rig = await serviceRig();
});
afterAll(() => rig?.close());

describe("a long text, streamed", () => {
  it("is answered and charged while the rest is still being produced", async () => {
    expect([...LONG].length).toBeGreaterThan(STREAM_MIN_CHARS);
    const owner = await rig.owner("1");
    const held = holdTheRest(rig);
    try {
      const result = await rig.service.speak(owner, ttsParams(LONG));
      const id = audioIdOf(result.audio_url);
      expect(rig.inProgress.get(id)?.state).toBe("open");
      expect(result.billing).toMatchObject({ raw_chars: 870, billable_chars: 900 });
      const ledger = await rig.store.ledger(owner.account.id, { limit: 5 });
      expect(ledger[0]).toMatchObject({ kind: "charge", audioId: id });
      held.release();
      await finished(rig, id);
    } finally {
      held.release();
    }
  });

  it("streams the same bytes, chunked, that the finished file then serves with its length and ranges", async () => {
    const owner = await rig.owner("1");
    const held = holdTheRest(rig);
    let streamed: Uint8Array;
    let id: string;
    try {
      id = audioIdOf((await rig.service.speak(owner, ttsParams(LONG))).audio_url);
      const streaming = await fetch(rig.audioUrl(id));
      expect(streaming.status).toBe(200);
      expect(streaming.headers.get("content-type")).toBe("audio/mpeg");
      expect(streaming.headers.get("content-length")).toBeNull();
      expect(streaming.headers.get("transfer-encoding")).toBe("chunked");
      const body = streaming.arrayBuffer();
      held.release();
      streamed = new Uint8Array(await body);
    } finally {
      held.release();
    }
    await finished(rig, id);

    const complete = await fetch(rig.audioUrl(id));
    const file = new Uint8Array(await complete.arrayBuffer());
    expect(complete.headers.get("content-length")).toBe(String(file.length));
    expect(streamed).toEqual(file);
    expect(new Uint8Array(await fs.readFile(rig.audio.fileOf(id)))).toEqual(file);
    const range = await fetch(rig.audioUrl(id), { headers: { Range: "bytes=100-199" } });
    expect(range.status).toBe(206);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(file.subarray(100, 200));

    // Constant bitrate without a header: the frames of every part, and nothing else.
    const mp3 = describeMp3(file);
    expect(mp3).toMatchObject({ hasXingHeader: false, sampleRate: 22050 });
    expect(mp3.frameBytes).toBe(file.length);
    expect(mp3.durationMs).toBeGreaterThan(200_000);
  });

  it("when a later part fails: the stream is cut, the charge is given back by a reversal, and the URL says so", async () => {
    const owner = await rig.owner("1");
    let release: () => void = () => {};
    rig.engine.failAfter = new Promise((resolve) => {
      release = resolve;
    });
    const start = rig.engine.calls.length;
    rig.engine.failWhen = (_request, call) => call === start + 3;
    try {
      const result = await rig.service.speak(owner, ttsParams(LONG));
      const id = audioIdOf(result.audio_url);
      const streaming = await fetch(rig.audioUrl(id));
      expect(streaming.status).toBe(200);
      const body = streaming.arrayBuffer();
      release();
      await expect(body).rejects.toThrow();

      await rig.service.drain();
      const gone = await fetch(rig.audioUrl(id));
      expect(gone.status).toBe(410);
      expect(await gone.json()).toEqual({ success: false, message: "The audio could not be finished; its charge was given back" });

      const ledger = await rig.store.ledger(owner.account.id, { limit: 5 });
      expect(ledger.map((entry) => entry.kind)).toEqual(["reversal", "charge", "recharge"]);
      expect(ledger[0]).toMatchObject({ audioId: id, amountMicro: -(ledger[1]?.amountMicro ?? 0) });
      const account = await rig.store.getAccount(owner.account.id);
      expect(account).toMatchObject({ balanceMicro: 1_000_000, totalConsumedMicro: 0 });
      expect(ledger.reduce((sum, entry) => sum + entry.amountMicro, 0)).toBe(account?.balanceMicro);
    } finally {
      rig.engine.failWhen = undefined;
      rig.engine.failAfter = undefined;
      release();
    }
  });

  it("when the first part fails, nothing is charged and no URL is given", async () => {
    const owner = await rig.owner("1");
    const start = rig.engine.calls.length;
    rig.engine.failWhen = (_request, call) => call === start + 1;
    try {
      await expect(rig.service.speak(owner, ttsParams(LONG))).rejects.toMatchObject({ code: "TTS_FAILED" });
    } finally {
      rig.engine.failWhen = undefined;
    }
    expect((await rig.store.getAccount(owner.account.id))?.balanceMicro).toBe(1_000_000);
    expect(await rig.store.ledger(owner.account.id, { limit: 5 })).toHaveLength(1);
  });
});
