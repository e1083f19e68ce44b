import fs from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { serviceRig, ttsParams } from "../helpers/tts-service.js";

describe("a charge that cannot be recorded", () => {
  it("fails the request as TTS_FAILED and leaves no audio behind", async () => {
    const rig = await serviceRig();
    const owner = await rig.owner("1");
    // The database goes away after the key check, while the audio is being made.
    await rig.store.close();
    try {
      await expect(rig.service.speak(owner, ttsParams("你好，世界。"))).rejects.toMatchObject({
        code: "TTS_FAILED",
        message: "The charge could not be recorded; nothing was charged",
      });
      expect(await fs.readdir(rig.audio.dir)).toEqual([]);
    } finally {
      await rig.close();
    }
  });
});
