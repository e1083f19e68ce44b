import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskAudioStore } from "../src/audio/disk.js";
import { newAudioId } from "../src/audio/ids.js";
import { startTestServer, type TestServer, tempDir } from "./helpers/harness.js";
import { data } from "./helpers/spec-client.js";

const DAY = 86_400_000;

async function age(file: string, days: number): Promise<void> {
  const when = new Date(Date.now() - days * DAY);
  await fs.utimes(file, when, when);
}

describe("audio retention", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ FANGYAN_AUDIO_RETENTION_DAYS: "7" });
  });
  afterAll(() => t?.close());

  it("an audio URL answers 404 once its file is older than the retention period", async () => {
    const { client } = await t.newCustomer("1");
    const { audio_url } = data<{ audio_url: string }>(await client.tts({ text: "你好", voice_id: "yue-female-1" }));
    const file = path.join(t.dataDir, "audio", path.basename(audio_url));
    await age(file, 6.9);
    expect((await fetch(audio_url)).status).toBe(200);
    await age(file, 7.1);
    expect((await fetch(audio_url)).status).toBe(404);
  });
});

describe("the disk audio store", () => {
  it("stores whole files only and sweeps those past the retention period", async () => {
    const dir = await tempDir();
    const store = new DiskAudioStore(dir, "http://127.0.0.1:8080/audio");
    await store.init();
    const fresh = newAudioId();
    const old = newAudioId();
    await store.put(fresh, new Uint8Array([1, 2, 3]));
    await store.put(old, new Uint8Array([4, 5, 6]));
    await age(store.fileOf(old), 8);
    expect(await store.sweep(7 * DAY)).toBe(1);
    expect((await fs.readdir(dir)).sort()).toEqual([`${fresh}.mp3`]);
    expect(await fs.readFile(store.fileOf(fresh))).toEqual(Buffer.from([1, 2, 3]));
    await expect(store.put("../escape", new Uint8Array([0]))).rejects.toThrow();
    await fs.rm(dir, { recursive: true, force: true });
  });
});
