import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { deriveEnvelopeKey, openEnvelope, sealEnvelope } from "@fangyan/protocol";
import Fastify from "fastify";
import { AccountService } from "../accounts/service.js";
import { parseConfig } from "../config/config.js";
import { startServer } from "../server.js";
import { createEspeakEngine } from "../speech/espeak/engine.js";
import { loadVoiceCatalog } from "../speech/voices.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { ms, type Summary, summarize, timeEach } from "./stats.js";

/**
 * `npm run bench`: the service against its baselines, measured in the same run
 * on the same machine, reported as ratios. Timings live here, never in tests.
 */

const TEXT_100 =
  "今天天气很好，我们一起去公园散步吧。公园里有很多人，有的在跑步，有的在打太极拳，还有小朋友在放风筝。春天来了，花都开了，红的、黄的、白的，真漂亮！我们走累了就在湖边坐一会儿，看看湖里的鱼和天上的白云。";
const TTS_RUNS = Number(process.env.BENCH_TTS_RUNS ?? 20);
const ACCOUNT_RUNS = Number(process.env.BENCH_ACCOUNT_RUNS ?? 300);

function row(label: string, measured: Summary, baseline: Summary, baselineLabel: string): string {
  return [
    `${label}`,
    `  service   p50 ${ms(measured.p50)}  p95 ${ms(measured.p95)}  (n=${measured.n})`,
    `  baseline  p50 ${ms(baseline.p50)}  p95 ${ms(baseline.p95)}  (${baselineLabel})`,
    `  ratio     p50 ${(measured.p50 / baseline.p50).toFixed(2)}x  p95 ${(measured.p95 / baseline.p95).toFixed(2)}x`,
  ].join("\n");
}

async function main(): Promise<void> {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  console.log(`machine: ${os.availableParallelism()} cores, ${cpu}, Node ${process.version}, ${os.platform()} ${os.arch()}`);
  console.log(`text: ${[...TEXT_100].length} characters of Mandarin\n`);

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "fangyan-bench-"));
  const threads = os.availableParallelism();
  const config = parseConfig({
    FANGYAN_DATA_DIR: dataDir,
    FANGYAN_PORT: "0",
    FANGYAN_DEMO: "0",
    FANGYAN_LOG_LEVEL: "silent",
    FANGYAN_RATE_LIMIT_PER_MINUTE: "1000000",
    FANGYAN_SYNTHESIS_THREADS: String(threads),
  });
  const server = await startServer(config);
  // Audio URLs are built from the configured port; the bench listens on a random one.
  const baseUrl = server.address;
  const store = await openSqliteStore(config.databaseFile);
  const { apiKey } = await new AccountService(store).createAccount({ name: "bench", rechargeYuan: "10000" });
  await store.close();
  const key = await deriveEnvelopeKey(apiKey);
  const voice = loadVoiceCatalog()
    .list()
    .find((v) => v.dialect_code === "cmn");
  if (!voice) throw new Error("no Mandarin voice in the catalog");

  const call = async (method: string, route: string, payload?: unknown) => {
    const response = await fetch(`${baseUrl}/api/v1${route}`, {
      method,
      headers: { "X-API-Key": apiKey, ...(payload ? { "Content-Type": "application/json" } : {}) },
      body: payload ? JSON.stringify(await sealEnvelope(key, payload)) : undefined,
    });
    const answer = await openEnvelope(key, await response.json());
    if (answer.success !== true) throw new Error(`request failed: ${JSON.stringify(answer)}`);
    return answer;
  };

  // Baseline 1: the same engine and encoder, called in-process, one request at a time.
  const engine = createEspeakEngine({ threads });
  const synth = () => engine.synthesize({ text: TEXT_100, voice: voice.engine, speed: 1, pitch: 1, volume: 1 });
  await synth();
  await call("POST", "/tts", { text: TEXT_100, voice_id: voice.id });
  const engineSamples = await timeEach(TTS_RUNS, synth);
  const ttsSamples = await timeEach(TTS_RUNS, () => call("POST", "/tts", { text: TEXT_100, voice_id: voice.id }));
  await engine.close();
  console.log(row("POST /tts, 100 characters, sequential", summarize(ttsSamples), summarize(engineSamples), "engine + encoder alone"));

  // Baseline 2: a bare Fastify route returning a fixed JSON document, same client loop.
  const bare = Fastify({ logger: false });
  bare.get("/fixed", async () => ({ success: true, data: { name: "bench", balance_yuan: 1 } }));
  const bareUrl = await bare.listen({ host: "127.0.0.1", port: 0 });
  const fetchBare = async () => (await fetch(`${bareUrl}/fixed`)).json();
  await timeEach(50, fetchBare);
  await timeEach(50, () => call("GET", "/account"));
  const bareSamples = await timeEach(ACCOUNT_RUNS, fetchBare);
  const accountSamples = await timeEach(ACCOUNT_RUNS, () => call("GET", "/account"));
  await bare.close();
  console.log(
    `\n${row("GET /account, sequential (client decrypts)", summarize(accountSamples), summarize(bareSamples), "bare Fastify fixed JSON")}`,
  );

  await encoderComparison(voice.engine);
  await server.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}

/** LAME as WebAssembly against the native `lame` binary, when the machine has one. */
async function encoderComparison(voice: Parameters<ReturnType<typeof createEspeakEngine>["synthesize"]>[0]["voice"]): Promise<void> {
  const native = spawnSync("lame", ["--version"], { encoding: "utf8" });
  if (native.error) {
    console.log("\nMP3 encoder: native `lame` not installed; `apt-get install lame` to compare it with the WASM build.");
    return;
  }
  const { encodeWavFileWithWasm } = await import("./encoder-bench.js");
  const result = await encodeWavFileWithWasm(voice);
  console.log(
    `\nMP3 encoder on ${result.seconds.toFixed(1)} s of speech: WASM ${ms(result.wasmMs)}, native lame ${ms(result.nativeMs)}, ratio ${(result.wasmMs / result.nativeMs).toFixed(2)}x`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
