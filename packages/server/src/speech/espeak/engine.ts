/**
 * The espeak-ng speech engine: a pool of worker threads, each running the
 * espeak-ng WASM build and encoding to MP3 (see worker.ts).
 */

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Pcm, type SpeechEngine, SynthesisError, type SynthesisRequest, type SynthesisResult } from "../engine.js";
import { asResult, createWorkerPool } from "../pool.js";
import { prepareEspeakTask } from "./arguments.js";
import { compileEspeak } from "./instance.js";
import type { EspeakTask } from "./task.js";
import type { EspeakWorkerData } from "./worker.js";

export interface EspeakEngineOptions {
  /** Worker threads, each synthesizing one request at a time. Default: one per core. */
  threads?: number;
  /**
   * Requests that may queue for a thread; beyond it a request waits up to
   * `waitMs` for room, then fails with reason "busy". Default 64.
   */
  maxQueue?: number;
  /**
   * How long a request may wait for room when threads and queue are full,
   * before it fails as "busy". Default 0: fail at once.
   */
  waitMs?: number;
  /**
   * The espeak-ng languages whose dictionaries are loaded (espeakLanguagesOf);
   * the others are left out of memory. Default: all.
   */
  languages?: readonly string[];
}

export function createEspeakEngine(options: EspeakEngineOptions = {}): SpeechEngine {
  const workerData: EspeakWorkerData = { espeak: compileEspeak(options.languages) };
  const pool = createWorkerPool<EspeakTask>({
    worker: "worker.js",
    from: import.meta.url,
    workerData,
    threads: options.threads,
    maxQueue: options.maxQueue,
    waitMs: options.waitMs,
  });

  const prepare = (request: SynthesisRequest): EspeakTask => {
    if (pool.closed) throw new SynthesisError("failed", { cause: new Error("The engine is closed") });
    const prepared = prepareEspeakTask(request);
    if (!prepared.ok) throw new SynthesisError(prepared.reason);
    return prepared.task;
  };

  return {
    name: "espeak-ng",
    kind: "espeak-ng",
    version: espeakPackageVersion(),
    threads: pool.threads,
    inFlight: () => pool.inFlight(),

    async synthesize(request: SynthesisRequest): Promise<SynthesisResult> {
      return asResult(await pool.run(prepare(request), "synthesize"));
    },

    synthesizePcm: async (request: SynthesisRequest): Promise<Pcm> => pool.synthesizePcm({ ...prepare(request), output: "pcm" }),

    encode: (pcm, sampleRate, followedByMore) => pool.encode(pcm, sampleRate, followedByMore),
    health: () => ({ engine: "espeak-ng", kind: "espeak-ng", status: "ok", in_flight: pool.inFlight() }),
    close: () => pool.close(),
  };
}

function espeakPackageVersion(): string {
  const manifest = createRequire(import.meta.url).resolve("espeak-ng/package.json");
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown };
  return typeof version === "string" ? version : "unknown";
}
