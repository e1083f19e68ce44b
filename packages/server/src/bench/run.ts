import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { deriveEnvelopeKey, openEnvelope, sealEnvelope } from "@fangyan/protocol";
import { AccountService } from "../accounts/service.js";
import { parseConfig } from "../config/config.js";
import { readForVoice } from "../reading/reader.js";
import { isEspeakVoice } from "../speech/espeak/arguments.js";
import { createEspeakEngine } from "../speech/espeak/engine.js";
import type { EspeakVoice } from "../speech/espeak/voice.js";
import { addModel } from "../speech/sherpa/add.js";
import { createSherpaEngines } from "../speech/sherpa/engine.js";
import { listModels } from "../speech/sherpa/models.js";
import { writeTestModel } from "../speech/sherpa/test-model/build.js";
import { loadVoiceCatalog } from "../speech/voices.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { forkServer } from "./fork.js";
import { underLoad } from "./load.js";
import { soak } from "./soak.js";
import { ms, type Summary, summarize, timeEach } from "./stats.js";
import { text5000, variant100 } from "./texts.js";
import { interleaved } from "./throughput.js";

/**
 * `npm run bench`: the service against its baselines, measured in the same run
 * on the same machine, reported as ratios and set beside issue 6's targets.
 * Timings live here, never in tests.
 */

const TTS_RUNS = Number(process.env.BENCH_TTS_RUNS ?? 20);
const LONG_RUNS = Number(process.env.BENCH_LONG_RUNS ?? 3);
const CACHE_RUNS = Number(process.env.BENCH_CACHE_RUNS ?? 50);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CLIENTS = 32;
const PER_CLIENT = Number(process.env.BENCH_PER_CLIENT ?? 3);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 300);

function verdict(ok: boolean): string {
  return ok ? "meets the target" : "MISSES the target";
}

/** `target` undefined: a figure without one of issue 6's targets, printed for comparison. */
function row(label: string, measured: Summary, baseline: Summary, baselineLabel: string, target: number | undefined): string {
  const ratio = measured.p50 / baseline.p50;
  const against = target === undefined ? "no target" : `target <= ${target.toFixed(1)}x: ${verdict(ratio <= target)}`;
  return [
    `${label}`,
    `  service   p50 ${ms(measured.p50)}  p95 ${ms(measured.p95)}  (n=${measured.n})`,
    `  baseline  p50 ${ms(baseline.p50)}  p95 ${ms(baseline.p95)}  (${baselineLabel})`,
    `  ratio     p50 ${ratio.toFixed(2)}x  (${against})`,
  ].join("\n");
}

async function main(): Promise<void> {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const load = os.loadavg().map((l) => l.toFixed(2));
  console.log(`machine: ${os.availableParallelism()} cores, ${cpu}, Node ${process.version}, ${os.platform()} ${os.arch()}`);
  console.log(`load average at start: ${load.join(" ")} (others' work on this machine shows up in every figure)\n`);

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "fangyan-bench-"));
  const threads = os.availableParallelism();
  const env = {
    FANGYAN_DATA_DIR: dataDir,
    FANGYAN_PORT: "0",
    FANGYAN_DEMO: "0",
    FANGYAN_LOG_LEVEL: "silent",
    FANGYAN_RATE_LIMIT_PER_MINUTE: "1000000",
    FANGYAN_SYNTHESIS_THREADS: String(threads),
  };
  const config = parseConfig(env);
  // The sherpa-onnx test model, installed as an operator would, in a models folder of its own:
  // only a second service process (2b) offers its voices, so the memory figures below are the
  // default service's (espeak-ng only), as an operator without models runs it.
  const modelsDir = path.join(dataDir, "sherpa-models");
  await writeTestModel(path.join(dataDir, "test-model"));
  const { manifest: benchModel } = await addModel(modelsDir, path.join(dataDir, "test-model"), { name: "bench-vits" });
  const sherpaVoice = benchModel.voices[0];
  if (!sherpaVoice) throw new Error("the test model has no voice");
  // The service in a process of its own: its memory and event loop are then its own.
  const server = await forkServer("service", env);
  const baseUrl = server.address;
  const store = await openSqliteStore(config.databaseFile);
  const { apiKey } = await new AccountService(store).createAccount({ name: "bench", rechargeYuan: "100000" });
  await store.close();
  const key = await deriveEnvelopeKey(apiKey);
  const voices = loadVoiceCatalog().list();
  const voice = voices.find((v) => v.dialect_code === "cmn");
  const cantonese = voices.find((v) => v.dialect_code === "yue");
  if (!voice || !cantonese) throw new Error("no Mandarin or no Cantonese voice in the catalog");

  const call = async (method: string, route: string, payload?: unknown, at = baseUrl) => {
    const response = await fetch(`${at}/api/v1${route}`, {
      method,
      headers: { "X-API-Key": apiKey, ...(payload ? { "Content-Type": "application/json" } : {}) },
      body: payload ? JSON.stringify(await sealEnvelope(key, payload)) : undefined,
    });
    const answer = await openEnvelope(key, await response.json());
    if (answer.success !== true) throw new Error(`request failed: ${JSON.stringify(answer)}`);
    return answer;
  };
  const speak = async (text: string, speaker: { id: string } = voice, at = baseUrl) => {
    const answer = await call("POST", "/tts", { text, voice_id: speaker.id }, at);
    const data = answer.data as { audio_url?: unknown } | undefined;
    if (typeof data?.audio_url !== "string") throw new Error("no audio_url");
    // Built from the configured port; the bench listens on a random one.
    return data.audio_url.replace(/^https?:\/\/[^/]+/, at);
  };

  await speak(variant100(9999));
  // 1. First: 32 concurrent clients speaking 100-character texts, half of them
  //    Mandarin and half Cantonese (so both dialects' dictionaries are in use),
  //    with the server's event loop and largest RSS recorded by the server process.
  server.watch();
  const loaded = await underLoad(CLIENTS, PER_CLIENT, async (client, i) => {
    await speak(variant100(1000 + client * PER_CLIENT + i), client % 2 === 0 ? voice : cantonese);
  });
  const watched = await server.report();
  console.log(`${CLIENTS} concurrent clients, ${loaded.requests} POST /tts of 100 characters in ${loaded.seconds.toFixed(1)} s`);
  console.log(
    `  event-loop delay  p99 ${ms(watched.eventLoopP99Ms)}  max ${ms(watched.eventLoopMaxMs)}  (target p99 <= 20 ms: ${verdict(watched.eventLoopP99Ms <= 20)})`,
  );
  console.log(
    `  RSS               max ${watched.peakRssMb.toFixed(0)} MB, the process's largest since it started  (target <= 300 MB: ${verdict(watched.peakRssMb <= 300)})`,
  );
  console.log(`  errors            ${loaded.errors}  (target 0: ${verdict(loaded.errors === 0)})`);

  // The baseline: the same engine and encoder, called in-process on what the
  // service gives the engine (the front-end's reading of the same text).
  const engine = createEspeakEngine({ threads });
  const synth = (text: string) =>
    engine.synthesize({
      text: readForVoice(text, voice).reading.engine_input,
      markup: true,
      voice: voice.engine,
      speed: 1,
      pitch: 1,
      volume: 1,
    });
  await synth(variant100(0));

  // 2. 100 characters, one request at a time, each text new to the cache.
  const engineSamples = await timeEach(TTS_RUNS, (i) => synth(variant100(i)));
  const ttsSamples = await timeEach(TTS_RUNS, (i) => speak(variant100(i)));
  console.log(
    `\n${row("POST /tts, 100 characters, one at a time", summarize(ttsSamples), summarize(engineSamples), "engine + encoder alone", 1.0)}`,
  );

  // 2b. The same through a sherpa-onnx voice (the test model): the service against the model
  //     and encoder called in-process on the same normalised text, one call each.
  const withModel = await forkServer("service", { ...env, FANGYAN_MODELS_DIR: modelsDir });
  const sherpa = createSherpaEngines({ models: listModels(modelsDir), threads });
  const sherpaEngine = sherpa.engines.get(benchModel.name);
  if (!sherpaEngine) throw new Error("no sherpa-onnx engine");
  const sherpaSynth = (text: string) =>
    sherpaEngine.synthesize({
      text: readForVoice(text, sherpaVoice).reading.engine_input,
      voice: sherpaVoice.engine,
      speed: 1,
      pitch: 1,
      volume: 1,
    });
  await sherpaSynth(variant100(0));
  await speak(variant100(5000), sherpaVoice, withModel.address);
  const sherpaAlone = await timeEach(TTS_RUNS, (i) => sherpaSynth(variant100(5000 + i)));
  const sherpaService = await timeEach(TTS_RUNS, (i) => speak(variant100(5000 + i), sherpaVoice, withModel.address));
  console.log(
    `\n${row("POST /tts, 100 characters, sherpa-onnx (the test VITS model), one at a time", summarize(sherpaService), summarize(sherpaAlone), "the model + encoder alone, in-process", undefined)}`,
  );
  await sherpa.close();
  await withModel.close();

  // 3. The same request again: answered from the cache, still billed.
  const hits = summarize(await timeEach(CACHE_RUNS, () => speak(variant100(0))));
  // For scale: the machine's own round trip, a request that does no work at all.
  const trip = summarize(await timeEach(CACHE_RUNS, () => fetch(`${baseUrl}/healthz`).then((response) => response.json())));
  console.log(`\nPOST /tts, repeated identical request (cache hit)\n  service   p50 ${ms(hits.p50)}  p95 ${ms(hits.p95)}  (n=${hits.n})`);
  console.log(`  for scale p50 ${ms(trip.p50)}  p95 ${ms(trip.p95)}  (GET /healthz on the same server: this machine's HTTP round trip)`);
  console.log(`  target    p50 <= 5 ms: ${verdict(hits.p50 <= 5)}`);

  // 4. 5 000 characters: first MP3 bytes from audio_url, and the whole file.
  const firstBytes: number[] = [];
  const whole: number[] = [];
  const serial: number[] = [];
  for (let i = 0; i < LONG_RUNS; i++) {
    const text = text5000(i * 7);
    const start = performance.now();
    const url = await speak(text);
    const response = await fetch(url);
    const reader = response.body?.getReader();
    if (!reader) throw new Error("no audio body");
    let bytes = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      if (bytes === 0 && read.value.length > 0) firstBytes.push(performance.now() - start);
      bytes += read.value.length;
    }
    whole.push(performance.now() - start);
    const t = performance.now();
    await synth(text);
    serial.push(performance.now() - t);
  }
  const first = summarize(firstBytes);
  const total = summarize(whole);
  const alone = summarize(serial);
  console.log(`\nPOST /tts, 5 000 characters, streamed (n=${first.n})`);
  console.log(`  first MP3 bytes from audio_url  p50 ${ms(first.p50)}  (target <= 300 ms: ${verdict(first.p50 <= 300)})`);
  console.log(`  whole file read                 p50 ${ms(total.p50)}`);
  console.log(`  baseline                        p50 ${ms(alone.p50)}  (engine + encoder on the whole text, one call)`);
  console.log(
    `  ratio                           p50 ${(total.p50 / alone.p50).toFixed(2)}x  (target <= 0.6x: ${verdict(total.p50 / alone.p50 <= 0.6)})`,
  );
  await engine.close();

  // 5. GET /account throughput against a bare Fastify route in a process of its own,
  //    same tool and connections, in interleaved rounds (throughput.ts).
  const headers = { "X-API-Key": apiKey };
  const bare = await forkServer("bare");
  // The required work with a query per request and nothing kept (child.ts uncachedRoute), on the same database.
  const uncached = await forkServer("uncached", { FANGYAN_DATA_DIR: dataDir });
  // Only the seal the interface requires of every answer (child.ts sealedRoute): the ceiling.
  const sealed = await forkServer("sealed");
  const rounds = await interleaved(
    [
      { url: `${bare.address}/fixed` },
      { url: `${uncached.address}/uncached`, headers },
      { url: `${baseUrl}/api/v1/account`, headers },
      { url: `${sealed.address}/sealed` },
    ],
    CONNECTIONS,
    ROUNDS,
    SECONDS,
  );
  await bare.close();
  await uncached.close();
  await sealed.close();
  const [bareRates = [], uncachedRates = [], accountRates = [], sealedRates = []] = rounds.perSecond;
  const [bareFailed, uncachedFailed, accountFailed, sealedFailed] = rounds.failed;
  const shareOfBare = (rates: number[]) => rates.map((rate, i) => rate / (bareRates[i] ?? Number.NaN));
  const shares = shareOfBare(accountRates);
  const uncachedShares = shareOfBare(uncachedRates);
  const sealedShares = shareOfBare(sealedRates);
  const share = summarize(shares).p50;
  const ceiling = summarize(sealedShares).p50;
  const percent = (values: number[]) => values.map((v) => `${(v * 100).toFixed(0)}%`).join(" ");
  console.log(`\nGET /account throughput, autocannon, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s`);
  console.log(`  service   p50 ${summarize(accountRates).p50.toFixed(0)} req/s  (${accountFailed} failed)`);
  console.log(`  baseline  p50 ${summarize(bareRates).p50.toFixed(0)} req/s  (${bareFailed} failed; bare Fastify fixed JSON)`);
  console.log(
    `  uncached  p50 ${summarize(uncachedRates).p50.toFixed(0)} req/s  (${uncachedFailed} failed; bare Fastify doing the required work with a query per request and nothing kept: ${percent(uncachedShares)})`,
  );
  console.log(
    `  sealed    p50 ${summarize(sealedRates).p50.toFixed(0)} req/s  (${sealedFailed} failed; bare Fastify sealing a fixed answer and nothing else, the ceiling: ${percent(sealedShares)})`,
  );
  console.log(`  ratio by round  ${percent(shares)}`);
  console.log(`  ratio     p50 ${(share * 100).toFixed(0)}%  (target >= 50%: ${verdict(share >= 0.5)})`);
  console.log(
    `  ceiling   p50 ${(ceiling * 100).toFixed(0)}%  (the seal alone; the service reaches ${((share / ceiling) * 100).toFixed(0)}% of it)`,
  );

  // 6. Sustained: 32 clients for five minutes (soak.ts), then idle.
  if (SOAK_SECONDS > 0) {
    const sustained = await soak(server, CLIENTS, SOAK_SECONDS, async (client, i) => {
      await speak(variant100(100_000 + client * 100_000 + i), client % 2 === 0 ? voice : cantonese);
    });
    console.log(
      `\n${CLIENTS} concurrent clients for ${sustained.seconds.toFixed(0)} s: ${sustained.requests} POST /tts of 100 characters, ${sustained.errors} errors`,
    );
    console.log(`  RSS every 10 s    ${sustained.samples.map((mb) => mb.toFixed(0)).join(" ")} MB`);
    console.log(`  of which V8 heap  ${sustained.heapSamples.map((mb) => mb.toFixed(0)).join(" ")} MB (the main thread's, reserved)`);
    console.log(`  RSS               max ${sustained.peakMb.toFixed(0)} MB  (target <= 300 MB: ${verdict(sustained.peakMb <= 300)})`);
    console.log(
      `  RSS after 15 s idle ${sustained.idleMb.toFixed(0)} MB (${sustained.endMb.toFixed(0)} MB when the load stopped; target: lower: ${verdict(sustained.idleMb < sustained.endMb)})`,
    );
  }

  if (isEspeakVoice(voice.engine)) {
    await encoderComparison(voice.engine);
    await formatsComparison(voice.engine);
  }
  await server.close();
  await fs.rm(dataDir, { recursive: true, force: true });
  console.log(
    `\nload average at end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}

/** LAME as WebAssembly against the native `lame` binary, when the machine has one. */
async function encoderComparison(voice: EspeakVoice): Promise<void> {
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

/** Every audio format on the same speech (docs/formats.md). */
async function formatsComparison(voice: EspeakVoice): Promise<void> {
  const { encodeInEveryFormat } = await import("./formats-bench.js");
  const result = await encodeInEveryFormat(voice);
  console.log(`\nAudio formats on ${result.seconds.toFixed(1)} s of speech (whole file, one core):`);
  for (const row of result.rows)
    console.log(
      `  ${row.name.padEnd(5)} ${row.realTime.toFixed(0).padStart(6)}x real time  ${(row.bytes / 1024).toFixed(0).padStart(5)} KB`,
    );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
