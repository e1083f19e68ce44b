/**
 * The espeak-ng speech engine: a pool of worker threads, each running the
 * espeak-ng WASM build and encoding to MP3 (see worker.ts).
 */

import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { type SpeechEngine, SynthesisError, type SynthesisRequest, type SynthesisResult } from "../engine.js";
import { prepareEspeakTask } from "./arguments.js";
import type { EspeakOutcome, EspeakTask } from "./task.js";

export interface EspeakEngineOptions {
  /** Worker threads, each synthesizing one request at a time. Default: one per core. */
  threads?: number;
  /**
   * Requests that may wait for a thread; beyond it synthesize() fails fast
   * with reason "busy" rather than leaving a caller waiting minutes. Default 64.
   */
  maxQueue?: number;
}

export function createEspeakEngine(options: EspeakEngineOptions = {}): SpeechEngine {
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const pool = new Piscina<EspeakTask, EspeakOutcome>({
    filename: workerPath(),
    name: "synthesize",
    minThreads: threads,
    maxThreads: threads,
    maxQueue: options.maxQueue ?? 64,
  });
  let closing: Promise<void> | undefined;

  return {
    name: "espeak-ng",
    version: espeakPackageVersion(),

    async synthesize(request: SynthesisRequest): Promise<SynthesisResult> {
      if (closing) throw new SynthesisError("failed", { cause: new Error("The engine is closed") });
      const prepared = prepareEspeakTask(request);
      if (!prepared.ok) throw new SynthesisError(prepared.reason);

      let outcome: EspeakOutcome;
      try {
        outcome = await pool.run(prepared.task);
      } catch (error) {
        // Piscina signals a full queue only through this message.
        const busy = error instanceof Error && error.message === "Task queue is at limit";
        throw new SynthesisError(busy ? "busy" : "failed", { cause: error });
      }
      if (!outcome.ok) throw new SynthesisError(outcome.reason, { cause: new Error(outcome.detail) });
      return {
        mp3: outcome.mp3,
        durationMs: Math.round((outcome.samples * 1000) / outcome.sampleRate),
        sampleRate: outcome.sampleRate,
      };
    },

    close(): Promise<void> {
      closing ??= pool.close();
      return closing;
    },
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
