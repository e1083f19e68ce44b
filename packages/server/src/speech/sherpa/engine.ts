/**
 * The sherpa-onnx engine: one pool of worker threads for every installed
 * model, each thread loading a model the first time it is asked for one of
 * its voices (worker.ts). Each model is an engine of its own to the service
 * (its name and digest key the audio cache); all share the threads.
 */

import { type Pcm, type SpeechEngine, SynthesisError, type SynthesisRequest } from "../engine.js";
import { asResult, createWorkerPool } from "../pool.js";
import { ttsConfigOf } from "./config.js";
import type { InstalledModel } from "./models.js";
import { sherpaVersion } from "./runtime.js";
import type { SherpaTask, SherpaWorkerData } from "./worker.js";

export interface SherpaEngineOptions {
  models: readonly InstalledModel[];
  /** Worker threads; each holds its own copy of every model it has used. Default: one per core. */
  threads?: number;
  maxQueue?: number;
  waitMs?: number;
}

/** The engine of each installed model, by model name, and a close() for their shared threads. */
export function createSherpaEngines(options: SherpaEngineOptions): { engines: Map<string, SpeechEngine>; close(): Promise<void> } {
  const workerData: SherpaWorkerData = {
    models: Object.fromEntries(options.models.map((model) => [model.manifest.name, ttsConfigOf(model.dir, model.manifest)])),
  };
  const pool = createWorkerPool<SherpaTask>({
    worker: "worker.js",
    from: import.meta.url,
    workerData,
    threads: options.threads,
    maxQueue: options.maxQueue,
    waitMs: options.waitMs,
  });
  const runtime = sherpaVersion();
  const engines = new Map<string, SpeechEngine>();
  for (const { manifest } of options.models) {
    const task = (request: SynthesisRequest): SherpaTask => {
      const voice = request.voice;
      if (voice.kind !== "sherpa-onnx" || voice.model !== manifest.name) throw new SynthesisError("voice_unavailable");
      if (voice.speaker >= manifest.speakers) throw new SynthesisError("voice_unavailable");
      return {
        model: manifest.name,
        text: request.text,
        speaker: voice.speaker,
        speed: request.speed,
        volume: request.volume,
        fitForJoin: request.followedByMore === true,
      };
    };
    const name = `sherpa-onnx:${manifest.name}`;
    engines.set(manifest.name, {
      name,
      kind: "sherpa-onnx",
      version: `${runtime}+${manifest.sha256.slice(0, 16)}`,
      threads: pool.threads,
      inFlight: () => pool.inFlight(),
      synthesize: async (request) => asResult(await pool.run(task(request), "synthesize")),
      synthesizePcm: (request): Promise<Pcm> => pool.synthesizePcm({ ...task(request), output: "pcm" }),
      encode: (pcm, sampleRate, followedByMore) => pool.encode(pcm, sampleRate, followedByMore),
      health: () => ({ engine: name, kind: "sherpa-onnx", status: "ok", in_flight: pool.inFlight() }),
      close: () => pool.close(),
    });
  }
  return { engines, close: () => pool.close() };
}
