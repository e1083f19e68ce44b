import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAudioId } from "../src/audio/ids.js";
import { S3AudioStore } from "../src/audio/s3.js";
import { discardTimed } from "../src/tts/timings.js";
import { startS3, type TestS3 } from "./helpers/backends.js";
import { startTestServer, type TestServer } from "./helpers/harness.js";
import { data } from "./helpers/spec-client.js";

const DAY = 86_400_000;

describe("audio in an S3-compatible bucket", () => {
  let s3: TestS3;
  let t: TestServer;
  beforeAll(async () => {
    s3 = await startS3();
    t = await startTestServer(s3.env);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  function store(overrides: { presign?: boolean; retentionMs?: number } = {}) {
    return new S3AudioStore(
      {
        bucket: s3.bucket,
        prefix: "audio/",
        region: "us-east-1",
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
        presign: overrides.presign ?? false,
      },
      `${t.baseUrl}/audio`,
      overrides.retentionMs ?? 7 * DAY,
    );
  }

  it("stores the MP3 of a request in the bucket and serves it through /audio with ranges", async () => {
    const { client } = await t.newCustomer("1");
    const { audio_url } = data<{ audio_url: string }>(await client.tts({ text: "早晨", voice_id: "yue-female-1" }));
    expect(audio_url).toMatch(new RegExp(`^${t.baseUrl}/audio/[A-Za-z0-9_-]{22}\\.mp3$`));
    const whole = await fetch(audio_url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/mpeg");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    const bytes = new Uint8Array(await whole.arrayBuffer());
    expect(Number(whole.headers.get("content-length"))).toBe(bytes.length);
    const part = await fetch(audio_url, { headers: { Range: "bytes=10-19" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-19/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(10, 20));

    // The object is in the bucket itself, under the prefix.
    const id = audio_url.split("/").pop()?.replace(".mp3", "") ?? "";
    const read = await store().read(id, undefined);
    expect(read && read !== "unsatisfiable" ? read.contentLength : 0).toBe(bytes.length);
  });

  it("keeps the subtitles of a request that asked for timings beside its MP3, served with their types, deleted with it", async () => {
    const { client } = await t.newCustomer("1");
    const result = data<{ audio_url: string; subtitles: { vtt: string; srt: string } }>(
      await client.tts({ text: "早晨。食咗飯未？", voice_id: "yue-female-1", timings: true }),
    );
    const vtt = await fetch(result.subtitles.vtt);
    expect(vtt.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    expect(await vtt.text()).toMatch(/^WEBVTT\n\n1\n00:00:\d{2}\.\d{3} --> /);
    const srt = await fetch(result.subtitles.srt);
    expect(srt.headers.get("content-type")).toBe("application/x-subrip; charset=utf-8");
    expect(await srt.text()).toMatch(/^1\n00:00:\d{2},\d{3} --> /);
    const id = result.audio_url.split("/").pop()?.replace(".mp3", "") ?? "";
    const bucket = store();
    expect(await bucket.exists(`${id}.vtt`)).toBe(true);
    expect(await bucket.exists(`${id}.json`)).toBe(true);
    await discardTimed(bucket, id);
    for (const key of [id, `${id}.vtt`, `${id}.srt`, `${id}.json`]) expect(await bucket.exists(key)).toBe(false);
    expect((await fetch(result.subtitles.srt)).status).toBe(404);
  });

  it("answers 404 for an unknown id", async () => {
    expect((await fetch(`${t.baseUrl}/audio/${newAudioId()}.mp3`)).status).toBe(404);
  });

  it("gives presigned bucket URLs when asked, valid for the retention period", async () => {
    const presigning = store({ presign: true });
    const id = newAudioId();
    await presigning.put(id, new Uint8Array([0xff, 0xf3, 1, 2, 3]));
    const url = await presigning.url(id);
    expect(url).toContain(`${s3.endpoint}/${s3.bucket}/audio/${id}.mp3?`);
    expect(url).toContain("X-Amz-Expires=604800");
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([0xff, 0xf3, 1, 2, 3]));
  });

  it("sweeps objects past the retention period and hides them before that", async () => {
    const sweeping = store({ retentionMs: 1000 });
    const id = newAudioId();
    await sweeping.put(id, new Uint8Array([1]));
    expect(await sweeping.read(id, undefined)).toBeDefined();
    // s3rver stamps LastModified in whole seconds.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await sweeping.read(id, undefined)).toBeUndefined();
    expect(await sweeping.sweep(1000)).toBeGreaterThanOrEqual(1);
    expect(await store().read(id, undefined)).toBeUndefined();
  });
});
