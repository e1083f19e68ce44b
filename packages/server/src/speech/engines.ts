/**
 * The engine registry: builds the engines the catalog's voices need, and
 * gives the service the engine of each voice. espeak-ng runs only if a voice
 * uses it, sherpa-onnx only if an installed model's voice is visible, the
 * encoder threads only if an HTTP voice is. A voice whose engine cannot be
 * built (a model not installed, an API key variable not set) stops the start
 * with a message naming the voice.
 */

import { availableParallelism } from "node:os";
import { type EngineHealth, type EngineVoice, type SpeechEngine, type SpeechEngines, SynthesisError } from "./engine.js";
import { espeakLanguagesOf, isEspeakVoice } from "./espeak/arguments.js";
import { createEspeakEngine } from "./espeak/engine.js";
import { createHttpEngine, endpointKey } from "./http/engine.js";
import type { HttpVoice } from "./http/voice.js";
import { createWorkerPool } from "./pool.js";
import { createSherpaEngines } from "./sherpa/engine.js";
import type { InstalledModel } from "./sherpa/models.js";
import type { Voice } from "./voices.js";

export interface EnginesOptions {
  /** The catalog's visible voices. */
  voices: readonly Voice[];
  /** Installed sherpa-onnx models (sherpa/models.ts). */
  models?: readonly InstalledModel[];
  /** espeak-ng worker threads; default one per core. */
  threads?: number;
  /** sherpa-onnx worker threads; default as `threads`. */
  sherpaThreads?: number;
  maxQueue?: number;
  waitMs?: number;
  /** The value of an environment variable an HTTP voice names for its key (config.secret). */
  secret?: (name: string) => string | undefined;
  warn?: (detail: Record<string, unknown>, message: string) => void;
}

export class EngineSetupError extends Error {
  override readonly name = "EngineSetupError";
}

export function createEngines(options: EnginesOptions): SpeechEngines {
  const engines = options.voices.map((voice) => voice.engine);
  const queue = { maxQueue: options.maxQueue ?? 64, waitMs: options.waitMs ?? 0 };
  const threads = options.threads ?? availableParallelism();
  const closers: Array<() => Promise<void>> = [];
  const all: SpeechEngine[] = [];

  const espeakVoices = engines.filter(isEspeakVoice);
  const espeak =
    espeakVoices.length > 0 ? createEspeakEngine({ languages: espeakLanguagesOf(espeakVoices), threads, ...queue }) : undefined;
  if (espeak) {
    all.push(espeak);
    closers.push(() => espeak.close());
  }

  const used = new Set(engines.flatMap((engine) => (engine.kind === "sherpa-onnx" ? [engine.model] : [])));
  const models = (options.models ?? []).filter((model) => used.has(model.manifest.name));
  for (const { id, engine } of options.voices) {
    if (engine.kind === "sherpa-onnx" && !models.some((model) => model.manifest.name === engine.model)) {
      throw new EngineSetupError(
        `voice ${id} uses the sherpa-onnx model "${engine.model}", which is not installed (npx fangyan models list)`,
      );
    }
  }
  const sherpa = models.length > 0 ? createSherpaEngines({ models, threads: options.sherpaThreads ?? threads, ...queue }) : undefined;
  if (sherpa) {
    all.push(...sherpa.engines.values());
    closers.push(() => sherpa.close());
  }

  const endpoints = new Map<string, SpeechEngine>();
  const httpVoices = options.voices.filter((voice): voice is Voice & { engine: HttpVoice } => voice.engine.kind === "http");
  if (httpVoices.length > 0) {
    // PCM from speech servers is encoded off the event loop, on threads of their own.
    const encoder = createWorkerPool<never>({
      worker: "mp3/worker.js",
      from: import.meta.url,
      workerData: {},
      threads: Math.min(2, threads),
      ...queue,
    });
    closers.push(() => encoder.close());
    for (const { id, engine: voice } of httpVoices) {
      const key = endpointKey(voice);
      if (endpoints.has(key)) continue;
      const apiKey = voice.apiKeyEnv === undefined ? undefined : options.secret?.(voice.apiKeyEnv);
      if (voice.apiKeyEnv !== undefined && apiKey === undefined) {
        throw new EngineSetupError(`voice ${id} takes its API key from the environment variable ${voice.apiKeyEnv}, which is not set`);
      }
      const engine = createHttpEngine(voice, {
        encode: (pcm, sampleRate, followedByMore) => encoder.encode(pcm, sampleRate, followedByMore),
        apiKey,
        waitMs: queue.waitMs,
        warn: options.warn ?? (() => {}),
      });
      endpoints.set(key, engine);
      all.push(engine);
    }
  }

  return {
    for(voice: EngineVoice): SpeechEngine {
      const engine = isEspeakVoice(voice)
        ? espeak
        : voice.kind === "sherpa-onnx"
          ? sherpa?.engines.get(voice.model)
          : endpoints.get(endpointKey(voice));
      if (engine === undefined) throw new SynthesisError("voice_unavailable");
      return engine;
    },
    health: (): EngineHealth[] => all.flatMap((engine) => (engine.health ? [engine.health()] : [])),
    async close() {
      await Promise.all([...closers.map((close) => close()), ...[...endpoints.values()].map((engine) => engine.close())]);
    },
  };
}

/** One engine as a registry, for tests and tools that drive a single engine. */
export function singleEngine(engine: SpeechEngine): SpeechEngines {
  return {
    for: () => engine,
    health: () => (engine.health ? [engine.health()] : []),
    close: () => engine.close(),
  };
}
