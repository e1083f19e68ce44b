/**
 * The piscina worker: runs espeak-ng (WASM) for one task and encodes its WAV
 * to MP3 in the same thread, so only the small MP3 crosses back.
 */

import type { WasmModule } from "espeak-ng";
import { workerData } from "piscina";
import { createMp3Encoder } from "wasm-media-encoders";
import type { Mp3Encoder } from "../mp3/encoder.js";
import { type EncodeTask, encodeOutcome, finish, type Moved, type WorkerOutcome } from "../outcome.js";
import { readWav } from "../wav.js";
import { EspeakInstance, type EspeakRun } from "./instance.js";
import type { EspeakTask } from "./task.js";

/** What engine.ts gives each worker: espeak-ng's module, compiled once for all of them. */
export interface EspeakWorkerData {
  espeak: WasmModule;
}

interface Runtime {
  espeak: EspeakInstance;
  encoder: Mp3Encoder;
}

const compiled = (workerData as EspeakWorkerData).espeak;

let runtime: Promise<Runtime> | undefined;

/**
 * The worker's engine and encoder, created once: espeak-ng's module (compiled
 * by the main thread) is instantiated as the worker starts, and that instance
 * serves every call (instance.ts). A call that traps leaves the instance
 * unusable; the next call gets a new one.
 */
async function loadRuntime(): Promise<Runtime> {
  runtime ??= (async () => {
    const [espeak, encoder] = await Promise.all([EspeakInstance.create(compiled), createMp3Encoder()]);
    return { espeak, encoder };
  })().catch((error: unknown) => {
    runtime = undefined; // let the next task try again rather than fail forever
    throw error;
  });
  const loaded = await runtime;
  if (!loaded.espeak.usable) loaded.espeak = await EspeakInstance.create(compiled);
  return loaded;
}

// Start as the worker starts; a failure surfaces on the first task.
loadRuntime().catch(() => {});

export async function synthesize(task: EspeakTask): Promise<WorkerOutcome | Moved> {
  let wav: Uint8Array;
  let encoder: Mp3Encoder;
  try {
    const loaded = await loadRuntime();
    encoder = loaded.encoder;
    // espeak-ng would speak without a variant it cannot find, as if none were asked for.
    if (task.variant && !loaded.espeak.addVariant(task.variant)) {
      return { ok: false, reason: "voice_unavailable", detail: `no espeak-ng variant ${task.variant.from}` };
    }
    const result = loaded.espeak.run(task.arguments, task.text);
    if (result.status !== 0 || result.wav === undefined) {
      const voiceMissing = result.errors.includes("voice does not exist");
      return { ok: false, reason: voiceMissing ? "voice_unavailable" : "failed", detail: describe(result) };
    }
    wav = result.wav;
  } catch (error) {
    // Failing to create the instance lands here; traps inside a call come back as its result.
    return { ok: false, reason: "failed", detail: String(error) };
  }

  const audio = readWav(wav);
  if (audio.channels !== 1) return { ok: false, reason: "failed", detail: `${audio.channels} channels` };
  return finish(encoder, audio.samples, audio.sampleRate, task.fitForJoin, task.output);
}

/** The "encode" task: PCM from the main thread (a part of a synthesis) to MP3. */
export async function encode(task: EncodeTask): Promise<WorkerOutcome | Moved> {
  try {
    const { encoder } = await loadRuntime();
    return encodeOutcome(encoder, task.pcm, task.sampleRate, task.fitForJoin);
  } catch (error) {
    return { ok: false, reason: "failed", detail: String(error) };
  }
}

function describe(run: EspeakRun): string {
  return `espeak-ng exit status ${run.status ?? "unknown"}: ${run.errors.slice(0, 500) || "no WAV written"}`;
}
