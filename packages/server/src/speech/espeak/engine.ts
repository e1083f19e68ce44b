/**
 * The espeak-ng speech engine: a pool of worker threads, each running the
 * espeak-ng WASM build and encoding to MP3 (see worker.ts).
 */

import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { Admission } from "../admission.js";
import { type SpeechEngine, SynthesisError, type SynthesisRequest, type SynthesisResult } from "../engine.js";
import { prepareEspeakTask } from "./arguments.js";
import { compileEspeak } from "./instance.js";
import type { EncodeTask, EspeakOutcome, EspeakTask } from "./task.js";
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
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const maxQueue = options.maxQueue ?? 64;
  // Piscina's own queue limit would reject at once; the admission in front of it
  // keeps it from ever filling, and lets a request wait for room instead.
  const admission = new Admission(threads + maxQueue, options.waitMs ?? 0);
  const workerData: EspeakWorkerData = { espeak: compileEspeak(options.languages) };
  const pool = new Piscina<EspeakTask | EncodeTask, EspeakOutcome>({
    filename: workerPath(),
    workerData,
    // A worker's JavaScript is small (its audio lives in typed arrays outside the
    // heap); V8's default young generation would still grow to tens of MB per thread.
    resourceLimits: { maxYoungGenerationSizeMb: 1 },
    name: "synthesize",
    minThreads: threads,
    maxThreads: threads,
    maxQueue,
  });
  let closing: Promise<void> | undefined;

  const prepare = (request: SynthesisRequest): EspeakTask => {
    if (closing) throw new SynthesisError("failed", { cause: new Error("The engine is closed") });
    const prepared = prepareEspeakTask(request);
    if (!prepared.ok) throw new SynthesisError(prepared.reason);
    return prepared.task;
  };

  /** One task on the pool, admitted first; a failure comes back as a SynthesisError. */
  const run = async (task: EspeakTask | EncodeTask, name: "synthesize" | "encode", transferList?: ArrayBuffer[]) => {
    if (!(await admission.acquire())) throw new SynthesisError("busy");
    let outcome: EspeakOutcome;
    try {
      outcome = await pool.run(task, { name, ...(transferList ? { transferList } : {}) });
    } catch (error) {
      // Piscina signals a full queue only through this message.
      const busy = error instanceof Error && error.message === "Task queue is at limit";
      throw new SynthesisError(busy ? "busy" : "failed", { cause: error });
    } finally {
      admission.release();
    }
    if (!outcome.ok) throw new SynthesisError(outcome.reason, { cause: new Error(outcome.detail) });
    return outcome;
  };

  return {
    name: "espeak-ng",
    version: espeakPackageVersion(),
    threads,
    inFlight: () => admission.inFlight,

    async synthesize(request: SynthesisRequest): Promise<SynthesisResult> {
      return asResult(await run(prepare(request), "synthesize"));
    },

    async synthesizePcm(request: SynthesisRequest): Promise<{ pcm: Int16Array; sampleRate: number }> {
      const outcome = await run({ ...prepare(request), output: "pcm" }, "synthesize");
      if (outcome.kind !== "pcm") throw new SynthesisError("failed", { cause: new Error("the worker sent MP3, not PCM") });
      return { pcm: outcome.pcm, sampleRate: outcome.sampleRate };
    },

    async encode(pcm: Int16Array, sampleRate: number, followedByMore: boolean): Promise<SynthesisResult> {
      const task: EncodeTask = { pcm, sampleRate, fitForJoin: followedByMore };
      // Moved, not copied: the caller hands over a buffer of its own.
      return asResult(await run(task, "encode", pcm.buffer instanceof ArrayBuffer ? [pcm.buffer] : undefined));
    },

    close(): Promise<void> {
      closing ??= pool.close();
      return closing;
    },
  };
}

function asResult(outcome: Exclude<EspeakOutcome, { ok: false }>): SynthesisResult {
  if (outcome.kind !== "mp3") throw new SynthesisError("failed", { cause: new Error("the worker sent PCM, not MP3") });
  return {
    mp3: outcome.mp3,
    durationMs: Math.round((outcome.samples * 1000) / outcome.sampleRate),
    sampleRate: outcome.sampleRate,
  };
}

/**
 * Worker threads load plain JavaScript. Under vitest this module runs from
 * its TypeScript source, so it points at the compiled worker in dist/, which
 * exists because `npm test` always runs `tsc -b` first.
 */
function workerPath(): string {
  const here = import.meta.url;
  const url = here.endsWith(".ts") ? new URL("worker.js", here.replace(/\/src\/(?!.*\/src\/)/, "/dist/")) : new URL("worker.js", here);
  const path = fileURLToPath(url);
  if (!existsSync(path)) throw new Error(`The espeak worker is not built (${path}); run \`npm run build\``);
  return path;
}

function espeakPackageVersion(): string {
  const manifest = createRequire(import.meta.url).resolve("espeak-ng/package.json");
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown };
  return typeof version === "string" ? version : "unknown";
}
