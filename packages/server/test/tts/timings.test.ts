import fs from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AudioStore } from "../../src/audio/store.js";
import { ServiceError } from "../../src/errors.js";
import { audioIdOf, type ServiceRig, serviceRig, ttsParams } from "../helpers/tts-service.js";

const TEXT = "你好，世界。今天天气很好！我们去公园散步吧。";

async function failureOf(work: Promise<unknown>): Promise<ServiceError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return error;
}

describe("timings through the service", () => {
  let rig: ServiceRig;
  beforeAll(async () => {
    rig = await serviceRig();
  });
  afterAll(() => rig?.close());

  it("a request charged before is answered again with the same timings and subtitles, read from beside its audio", async () => {
    const owner = await rig.owner("1");
    const params = ttsParams(TEXT, { timings: true });
    const first = await rig.service.speak(owner, params, "fingerprint-timings-replay");
    expect(first.timings?.sentences).toHaveLength(3);
    const again = await rig.service.speak(owner, params, "fingerprint-timings-replay");
    expect(again).toEqual(first);
    const charges = (await rig.store.ledger(owner.account.id, { limit: 10 })).filter((entry) => entry.kind === "charge");
    expect(charges).toHaveLength(1);
  });

  it("every sentence is a synthesis of its own; one that fails charges nothing and leaves no file", async () => {
    const owner = await rig.owner("1");
    const before = rig.engine.calls.length;
    rig.engine.failWhen = (_request, call) => call === before + 2;
    try {
      const error = await failureOf(rig.service.speak(owner, ttsParams(`${TEXT}再见。`, { timings: true })));
      expect(error.code).toBe("TTS_FAILED");
    } finally {
      rig.engine.failWhen = undefined;
    }
    expect((await rig.store.ledger(owner.account.id, { limit: 10 })).filter((entry) => entry.kind === "charge")).toEqual([]);
    const files = await fs.readdir(rig.audio.dir);
    const calls = rig.engine.calls.length;
    const result = await rig.service.speak(owner, ttsParams(`${TEXT}再见。`, { timings: true }));
    expect(result.timings?.sentences).toHaveLength(4);
    expect(rig.engine.calls.length - calls).toBe(4);
    // The four sentences of the second try, each its own synthesis; nothing of the failed try was kept.
    const id = audioIdOf(result.audio_url);
    expect((await fs.readdir(rig.audio.dir)).filter((file) => !files.includes(file)).sort()).toEqual(
      [`${id}.mp3`, `${id}.srt`, `${id}.json`, `${id}.vtt`].sort(),
    );
  });
});

describe("timings when the subtitles cannot be stored", () => {
  let rig: ServiceRig;
  beforeAll(async () => {
    const failVtt = (audio: AudioStore): AudioStore => {
      const failing: AudioStore = Object.create(audio);
      failing.put = async (key, bytes) => {
        if (key.endsWith(".vtt")) throw new Error("disk full (injected by the test)");
        return audio.put(key, bytes);
      };
      return failing;
    };
    rig = await serviceRig({}, { audio: failVtt });
  });
  afterAll(() => rig?.close());

  it("nothing is charged and the audio written before them is removed", async () => {
    const owner = await rig.owner("1");
    const error = await failureOf(rig.service.speak(owner, ttsParams(TEXT, { timings: true })));
    expect(error.code).toBe("TTS_FAILED");
    expect(error.message).toBe("The audio could not be stored; nothing was charged");
    expect(await rig.store.ledger(owner.account.id, { limit: 10 })).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ kind: "charge" })]),
    );
    expect((await fs.readdir(rig.audio.dir)).filter((file) => !file.startsWith("."))).toEqual([]);
  });
});
