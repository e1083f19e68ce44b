/**
 * `format` on POST /tts of /api/v1: every format's file at an audio URL with
 * its extension, served with its Content-Type and Range, streamed while a long
 * text is produced, and decoded by tools that share no code with ours.
 */

import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { PCM_SAMPLE_RATE } from "@fangyan/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeWithFfmpeg, missingDecoders } from "./helpers/decode.js";
import { startTestServer, type TestServer, tempDir } from "./helpers/harness.js";
import { longText, moneyHolds } from "./helpers/money.js";
import { data } from "./helpers/spec-client.js";

let t: TestServer;
let dir: string;
beforeAll(async () => {
  t = await startTestServer();
  dir = await tempDir("fangyan-api-formats-");
});
afterAll(async () => {
  await t?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

interface TtsData {
  audio_url: string;
  billing: { raw_chars: number; billable_chars: number; cost_yuan: number };
}

const TEXT = "今日天氣好好，我哋去公園散步。";

async function save(bytes: ArrayBuffer, name: string): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, new Uint8Array(bytes));
  return file;
}

describe.skipIf(missingDecoders.length > 0)("format on POST /tts", () => {
  it.each([
    ["wav", "audio/wav", "pcm_s16le", 22_050],
    ["pcm", "audio/pcm", "pcm_s16le", PCM_SAMPLE_RATE],
    ["opus", "audio/ogg; codecs=opus", "opus", 48_000],
    ["flac", "audio/flac", "flac", 22_050],
    ["mp3", "audio/mpeg", "mp3", 22_050],
  ])("%s: audio_url ends in .%s, served as %s, decodes to one channel of the speech", async (format, contentType, codec, rate) => {
    const { client, accountId } = await t.newCustomer("1");
    const result = data<TtsData>(await client.tts({ text: TEXT, voice_id: "yue-female-1", format }));
    expect(result.audio_url).toMatch(new RegExp(`/audio/[A-Za-z0-9_-]{22}\\.${format}$`));
    expect(result.billing).toMatchObject({ raw_chars: [...TEXT].length, billable_chars: 50, cost_yuan: 0.01 });
    const response = await fetch(result.audio_url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(contentType);
    const file = await save(await response.arrayBuffer(), `short.${format}`);
    const audio = decodeWithFfmpeg(file, format === "pcm" ? { pcmRate: PCM_SAMPLE_RATE } : {});
    expect(audio).toMatchObject({ codec, channels: 1, sampleRate: rate });
    expect(audio.samples / audio.sampleRate).toBeGreaterThan(1.5);
    // Range works on every format: the first bytes of a WAV are its RIFF header.
    const head = await fetch(result.audio_url, { headers: { Range: "bytes=0-3" } });
    expect(head.status).toBe(206);
    const bytes = Buffer.from(await head.arrayBuffer());
    expect(bytes).toHaveLength(4);
    if (format === "wav") expect(bytes.toString("latin1")).toBe("RIFF");
    if (format === "flac") expect(bytes.toString("latin1")).toBe("fLaC");
    if (format === "opus") expect(bytes.toString("latin1")).toBe("OggS");
    await moneyHolds(t.store, accountId);
  });

  it("refuses an unknown format as MISSING_PARAMETER with details.invalid, and charges nothing", async () => {
    const { client, accountId } = await t.newCustomer("1");
    const answer = await client.tts({ text: TEXT, voice_id: "yue-female-1", format: "aac" });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, error_code: "MISSING_PARAMETER", details: { invalid: ["format"] } });
    expect(answer.body.message).toContain("mp3, wav, pcm, opus, flac");
    const { ledger } = await moneyHolds(t.store, accountId);
    expect(ledger).toHaveLength(1);
  });

  it("does not answer one format from the cache of another", async () => {
    const { client } = await t.newCustomer("1");
    const mp3 = data<TtsData>(await client.tts({ text: "同一句話，兩種格式。", voice_id: "cmn-female-1" }));
    const wav = data<TtsData>(await client.tts({ text: "同一句話，兩種格式。", voice_id: "cmn-female-1", format: "wav" }));
    const first = await fetch(mp3.audio_url);
    await first.body?.cancel();
    expect(first.headers.get("content-type")).toBe("audio/mpeg");
    const bytes = Buffer.from(await (await fetch(wav.audio_url)).arrayBuffer());
    expect(bytes.subarray(0, 4).toString("latin1")).toBe("RIFF");
  });

  it("streams a long FLAC text while it is produced, then stores it with its length and MD5 stated", async () => {
    const { client, accountId } = await t.newCustomer("5");
    const text = longText(900);
    const result = data<TtsData>(await client.tts({ text, voice_id: "cmn-male-1", format: "flac" }));
    expect(result.audio_url).toMatch(/\.flac$/);
    // Asked for at once, the audio is still being produced: chunked, from memory.
    const streamed = await fetch(result.audio_url);
    expect(streamed.headers.get("content-type")).toBe("audio/flac");
    const streamedFile = await save(await streamed.arrayBuffer(), "streamed.flac");
    execFileSync("flac", ["--silent", "-t", streamedFile]);
    // Stored whole, its STREAMINFO states the sample count (a stream's header cannot) and flac -t checks its MD5.
    let stored: Response | undefined;
    for (let i = 0; i < 100 && !stored?.headers.get("content-length"); i++) {
      await stored?.body?.cancel();
      stored = await fetch(result.audio_url);
      if (!stored.headers.get("content-length")) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!stored) throw new Error("never stored");
    const storedFile = await save(await stored.arrayBuffer(), "stored.flac");
    execFileSync("flac", ["--silent", "-t", storedFile]);
    const total = Number(execFileSync("metaflac", ["--show-total-samples", storedFile], { encoding: "utf8" }));
    expect(total).toBeGreaterThan(22_050 * 100);
    expect(decodeWithFfmpeg(streamedFile).samples).toBe(total);
    const { ledger } = await moneyHolds(t.store, accountId);
    expect(ledger.filter((entry) => entry.kind === "charge")).toHaveLength(1);
  });
});
