/**
 * A pool of worker threads that synthesize and encode: one per local engine
 * (espeak-ng, each sherpa-onnx setup) and one that only encodes (for the
 * HTTP engine's PCM). Admission in front of piscina lets a request wait for
 * room instead of failing at once, up to the configured wait.
 */

import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { Admission } from "./admission.js";
import { type Pcm, SynthesisError, type SynthesisResult } from "./engine.js";
import type { EncodeTask, WorkerOutcome } from "./outcome.js";

export interface PoolOptions {
  /** The worker module's file name, beside the calling module. */
  worker: string;
  /** The calling module's import.meta.url. */
  from: string;
  workerData: unknown;
  /** Worker threads, each running one task at a time. Default: one per core. */
  threads?: number | undefined;
  /** Tasks that may queue for a thread; beyond it a task waits up to `waitMs` for room, then fails as "busy". Default 64. */
  maxQueue?: number | undefined;
  /** Default 0: a task past the queue fails at once. */
  waitMs?: number | undefined;
}

export interface WorkerPool<Task> {
  readonly threads: number;
  inFlight(): number;
  /** Runs "synthesize" (the worker's synthesis export) or "encode"; a failure comes back as a SynthesisError. */
  run(task: Task | EncodeTask, name: "synthesize" | "encode"): Promise<Exclude<WorkerOutcome, { ok: false }>>;
  /** A synthesis task whose samples come back unencoded (`output: "pcm"`). */
  synthesizePcm(task: Task & { output: "pcm" }): Promise<Pcm>;
  encode(pcm: Int16Array, sampleRate: number, followedByMore: boolean): Promise<SynthesisResult>;
  close(): Promise<void>;
  readonly closed: boolean;
}

export function createWorkerPool<Task>(options: PoolOptions): WorkerPool<Task> {
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const maxQueue = options.maxQueue ?? 64;
  // Piscina's own queue limit would reject at once; the admission in front of it
  // keeps it from ever filling, and lets a request wait for room instead.
  const admission = new Admission(threads + maxQueue, options.waitMs ?? 0);
  const pool = new Piscina<Task | EncodeTask, WorkerOutcome>({
    filename: workerPath(options.worker, options.from),
    workerData: options.workerData,
    // A worker's JavaScript is small (its audio lives in typed arrays outside the
    // heap); V8's default young generation would still grow to tens of MB per thread.
    resourceLimits: { maxYoungGenerationSizeMb: 1 },
    minThreads: threads,
    maxThreads: threads,
    maxQueue,
  });
  let closing: Promise<void> | undefined;

  const run = async (task: Task | EncodeTask, name: "synthesize" | "encode", transferList?: ArrayBuffer[]) => {
    if (closing) throw new SynthesisError("failed", { cause: new Error("The engine is closed") });
    if (!(await admission.acquire())) throw new SynthesisError("busy");
    let outcome: WorkerOutcome;
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
    threads,
    inFlight: () => admission.inFlight,
    run: (task, name) => run(task, name),
    async synthesizePcm(task) {
      const outcome = await run(task, "synthesize");
      if (outcome.kind !== "pcm") throw new SynthesisError("failed", { cause: new Error("the worker sent MP3, not PCM") });
      return { pcm: outcome.pcm, sampleRate: outcome.sampleRate };
    },
    async encode(pcm, sampleRate, followedByMore) {
      const task: EncodeTask = { pcm, sampleRate, fitForJoin: followedByMore };
      // Moved, not copied: the caller hands over a buffer of its own.
      return asResult(await run(task, "encode", pcm.buffer instanceof ArrayBuffer ? [pcm.buffer] : undefined));
    },
    close() {
      closing ??= pool.close();
      return closing;
    },
    get closed() {
      return closing !== undefined;
    },
  };
}

export function asResult(outcome: Exclude<WorkerOutcome, { ok: false }>): SynthesisResult {
  if (outcome.kind !== "mp3") throw new SynthesisError("failed", { cause: new Error("the worker sent PCM, not MP3") });
  return {
    mp3: outcome.mp3,
    durationMs: Math.round((outcome.samples * 1000) / outcome.sampleRate),
    sampleRate: outcome.sampleRate,
    ...(outcome.voiced ? { voiced: outcome.voiced } : {}),
  };
}

/**
 * Worker threads load plain JavaScript. Under vitest the engines run from
 * their TypeScript sources, so the worker is taken from dist/, which exists
 * because `npm test` always runs `tsc -b` first.
 */
function workerPath(worker: string, from: string): string {
  const url = from.endsWith(".ts") ? new URL(worker, from.replace(/\/src\/(?!.*\/src\/)/, "/dist/")) : new URL(worker, from);
  const path = fileURLToPath(url);
  if (!existsSync(path)) throw new Error(`The speech worker is not built (${path}); run \`npm run build\``);
  return path;
}
