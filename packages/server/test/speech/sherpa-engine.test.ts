import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describeMp3 } from "@fangyan/mp3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/config.js";
import { readForVoice } from "../../src/reading/reader.js";
import { startServer } from "../../src/server.js";
import { createSherpaEngines } from "../../src/speech/sherpa/engine.js";
import { listModels } from "../../src/speech/sherpa/models.js";
import { SILENT_CHAR, TEST_MODEL, testModelTokenCount } from "../../src/speech/sherpa/test-model/build.js";
import { freePort, startTestServer, type TestServer, tempDir } from "../helpers/harness.js";
import { fetchAudio, playedMs } from "../helpers/played.js";
import { fangyan, REPO_ROOT, run } from "../helpers/processes.js";
import { data } from "../helpers/spec-client.js";

let dir: string;
let modelDir: string;
let dataDir: string;
let t: TestServer | undefined;

/** The test model's expected length for a text: 0.1 s per token of what the front-end gives it. */
function expectedMs(text: string): number {
  const input = readForVoice(text, { id: "x", dialect_code: "cmn", engine: { kind: "sherpa-onnx", model: "x", speaker: 0 } }).reading
    .engine_input;
  return (testModelTokenCount(input) * TEST_MODEL.tokenSamples * 1000) / TEST_MODEL.sampleRate;
}

beforeAll(async () => {
  dir = await tempDir();
  modelDir = path.join(dir, "test-vits");
  dataDir = path.join(dir, "data");
  // As an operator would: npm run test-model -- DIR (its built script), then npx fangyan models add DIR --json.
  const written = await run(process.execPath, [path.join(REPO_ROOT, "packages/server/dist/speech/sherpa/test-model/cli.js"), modelDir], {});
  expect(written.code).toBe(0);
});

afterAll(async () => {
  await t?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("a sherpa-onnx model, from folder to a paying customer", () => {
  it("models add checks the folder, installs it and prints its voices", async () => {
    const added = await fangyan(["models", "add", modelDir, "--json"], { FANGYAN_DATA_DIR: dataDir });
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({ name: "test-vits", voices: ["test-vits-0", "test-vits-1"] });
    const listed = await fangyan(["models", "list", "--json"], { FANGYAN_DATA_DIR: dataDir });
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ name: "test-vits", type: "vits", sample_rate: 16_000, speakers: 2, language: "Chinese" }),
    ]);
  });

  it("offers its voices from the next start, in their dialect group", async () => {
    t = await startTestServer({ FANGYAN_MODELS_DIR: path.join(dataDir, "models") });
    const { client } = await t.newCustomer("1");
    const { voices } = data<{ voices: Record<string, Array<{ id: string }>> }>(await client.voices());
    expect(voices["普通话"]?.map((voice) => voice.id)).toEqual(expect.arrayContaining(["cmn-female-1", "test-vits-0", "test-vits-1"]));
  });

  it("speaks a charged POST /tts as a playable MP3 as long as the model's tokens", async () => {
    if (!t) throw new Error("no server");
    const { client } = await t.newCustomer("1");
    const text = "你好，世界！2026年见。";
    const result = data<{ audio_url: string; billing: { cost_yuan: number } }>(await client.tts({ text, voice_id: "test-vits-0" }));
    expect(result.billing.cost_yuan).toBe(0.01);
    const mp3 = await fetchAudio(result.audio_url);
    expect(describeMp3(mp3)).toMatchObject({ sampleRate: 16_000, channels: 1, hasXingHeader: true });
    expect(Math.abs(playedMs(mp3) - expectedMs(text))).toBeLessThan(5);
    // The other speaker is the same model at half the gain: other bytes, same length.
    const other = await fetchAudio(data<{ audio_url: string }>(await client.tts({ text, voice_id: "test-vits-1" })).audio_url);
    expect(Buffer.compare(Buffer.from(other), Buffer.from(mp3))).not.toBe(0);
    expect(playedMs(other)).toBeCloseTo(playedMs(mp3), 0);
  });

  it("streams a long text in parts and joins them without a gap", async () => {
    if (!t) throw new Error("no server");
    const { client } = await t.newCustomer("1");
    const text = "今天天气很好，我们一起去公园散步吧。公园里有很多人，有的在跑步。".repeat(10); // 320 characters: streamed
    const result = data<{ audio_url: string }>(await client.tts({ text, voice_id: "test-vits-0" }));
    const mp3 = await fetchAudio(result.audio_url);
    const whole = expectedMs(text);
    // Joins cut at most a frame (36 ms) of a sentence's closing pause each, and add nothing;
    // the streamed file's untagged encoder delay and padding add 72 ms.
    expect(playedMs(mp3)).toBeLessThanOrEqual(whole + 72 + 1);
    expect(playedMs(mp3)).toBeGreaterThan(whole - 8 * 36);
  });

  it("a streamed text whose later part the model cannot speak: the charge is given back and the URL says so", async () => {
    if (!t) throw new Error("no server");
    const { client } = await t.newCustomer("1");
    // The test model reads 默 as a pause: the parts after the first are silence, which is no audio.
    const text = `你好，今天天气很好，我们一起去公园散步吧。${`${SILENT_CHAR.repeat(5)}。`.repeat(60)}`;
    const result = data<{ audio_url: string; billing: { balance_after_yuan: number } }>(
      await client.tts({ text, voice_id: "test-vits-0" }),
    );
    expect(result.billing.balance_after_yuan).toBe(0.92); // 381 characters: 400 billed
    await expect.poll(async () => (await fetch(result.audio_url)).status, { timeout: 20_000 }).toBe(410);
    expect(data<{ balance_yuan: number }>(await client.account()).balance_yuan).toBe(1);
  });

  it("a text with no character the model's lexicon has fails as nothing to speak, and the runtime (which would crash on it) never sees it", async () => {
    const { engines, close } = createSherpaEngines({ models: listModels(path.join(dataDir, "models")), threads: 1 });
    try {
      const engine = engines.get("test-vits");
      if (!engine) throw new Error("no engine");
      const request = { voice: { kind: "sherpa-onnx", model: "test-vits", speaker: 0 } as const, speed: 1, pitch: 1, volume: 1 };
      await expect(engine.synthesize({ ...request, text: "あいうえお" })).rejects.toMatchObject({ reason: "nothing_to_speak" });
      const after = await engine.synthesize({ ...request, text: "你好。" });
      expect(after.durationMs).toBe(300);
    } finally {
      await close();
    }
  });

  it("removing a model that voices of the voice file use says which voices", async () => {
    const voicesFile = path.join(dir, "voices.json");
    const own = {
      id: "my-voice",
      name: "我的声音",
      dialect_code: "cmn",
      dialect_label: "普通话",
      engine: { kind: "sherpa-onnx", model: "test-vits", speaker: 1 },
    };
    await fs.writeFile(voicesFile, JSON.stringify([own]));
    const refused = await fangyan(["models", "remove", "test-vits"], { FANGYAN_DATA_DIR: dataDir, FANGYAN_VOICES_FILE: voicesFile });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("my-voice");
    await fs.access(path.join(dataDir, "models", "test-vits"));
  });
});

describe("adding from an archive over HTTP", () => {
  let server: http.Server;
  let base: string;
  let sha256: string;

  beforeAll(async () => {
    execFileSync("tar", ["-cjf", path.join(dir, "test-vits-archive.tar.bz2"), "-C", dir, "test-vits"]);
    const archive = await fs.readFile(path.join(dir, "test-vits-archive.tar.bz2"));
    sha256 = createHash("sha256").update(archive).digest("hex");
    server = http.createServer((req, res) => {
      if (req.url === "/models/test-vits-archive.tar.bz2") res.writeHead(200, { "content-length": String(archive.length) }).end(archive);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("downloads with progress, checks the SHA-256, unpacks and installs", async () => {
    const models = path.join(dir, "models-http");
    const added = await fangyan(["models", "add", `${base}/models/test-vits-archive.tar.bz2`, "--sha256", sha256, "--json"], {
      FANGYAN_MODELS_DIR: models,
    });
    expect(added.code).toBe(0);
    expect(added.stderr).toMatch(/downloaded 100% of/);
    expect(JSON.parse(added.stdout)).toEqual({ name: "test-vits-archive", voices: ["test-vits-archive-0", "test-vits-archive-1"] });
    expect(await fs.readdir(models)).toEqual(["test-vits-archive"]);
  });

  it("refuses an archive whose SHA-256 differs, and leaves nothing behind", async () => {
    const models = path.join(dir, "models-bad-sum");
    const added = await fangyan(["models", "add", `${base}/models/test-vits-archive.tar.bz2`, "--sha256", "0".repeat(64)], {
      FANGYAN_MODELS_DIR: models,
    });
    expect(added.code).not.toBe(0);
    expect(added.stderr).toContain("SHA-256");
    expect(await fs.readdir(models)).toEqual([]);
  });

  it("refuses a URL that answers 404", async () => {
    const added = await fangyan(["models", "add", `${base}/models/missing.tar.bz2`], { FANGYAN_MODELS_DIR: path.join(dir, "models-404") });
    expect(added.code).not.toBe(0);
    expect(added.stderr).toContain("HTTP 404");
  });
});

describe("a broken model", () => {
  async function brokenCopy(name: string, breakIt: (folder: string) => Promise<void>): Promise<string> {
    const folder = path.join(dir, name);
    await fs.cp(modelDir, folder, { recursive: true });
    await breakIt(folder);
    return folder;
  }

  it.each<[string, (folder: string) => Promise<void>, RegExp]>([
    [
      "a model file cut short",
      (f) => fs.truncate(path.join(f, "model.onnx"), 1000),
      /model\.onnx is not a readable ONNX model.*corrupt or cut short/,
    ],
    ["no tokens.txt", (f) => fs.rm(path.join(f, "tokens.txt")), /has no tokens\.txt/],
    ["no lexicon", (f) => fs.rm(path.join(f, "lexicon.txt")), /has no lexicon\.txt/],
    ["no model at all", (f) => fs.rm(path.join(f, "model.onnx")), /holds no \.onnx model file/],
  ])("is refused at add with a message naming what is wrong: %s", async (what, breakIt, message) => {
    const folder = await brokenCopy(`broken-${what.replace(/\W+/g, "-")}`, breakIt);
    const models = path.join(dir, `models-${path.basename(folder)}`);
    const added = await fangyan(["models", "add", folder], { FANGYAN_MODELS_DIR: models });
    expect(added.code).not.toBe(0);
    expect(added.stderr).toMatch(message);
    expect(await fs.readdir(models)).toEqual([]);
  });

  it("damaged after it was added, stops the start with a message naming the model", async () => {
    const models = path.join(dir, "models-damaged");
    const added = await fangyan(["models", "add", modelDir, "--name", "damaged"], { FANGYAN_MODELS_DIR: models });
    expect(added.code).toBe(0);
    await fs.truncate(path.join(models, "damaged", "model.onnx"), 4096);
    const config = parseConfig({
      FANGYAN_DATA_DIR: path.join(dir, "damaged-data"),
      FANGYAN_MODELS_DIR: models,
      FANGYAN_PORT: String(await freePort()),
      FANGYAN_DEMO: "0",
    });
    await expect(startServer(config)).rejects.toThrow(
      /model "damaged" .* is damaged: model\.onnx is 4096 bytes.*npx fangyan models remove damaged/,
    );
  });
});
