/**
 * The piscina worker: runs espeak-ng (WASM) for one task and encodes its WAV
 * to MP3 in the same thread, so only the small MP3 crosses back.
 */

import type { WasmModule } from "espeak-ng";
import { move, transferableSymbol, valueSymbol, workerData } from "piscina";
import { createMp3Encoder } from "wasm-media-encoders";
import { encodeMp3, type Mp3Encoder } from "../mp3/encoder.js";
import { canFitForJoin, fitForJoin } from "../mp3/gapless.js";
import { EspeakInstance, type EspeakRun } from "./instance.js";
import type { EncodeTask, EspeakOutcome, EspeakTask } from "./task.js";
import { readWav } from "./wav.js";

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

/** An outcome whose MP3 buffer piscina transfers; the main thread receives the EspeakOutcome. */
type Moved = ReturnType<typeof move>;

export async function synthesize(task: EspeakTask): Promise<EspeakOutcome | Moved> {
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
  if (isSilent(audio.samples)) return { ok: false, reason: "no_audio", detail: "silent WAV" };
  if (task.output === "pcm") {
    const pcm = audio.samples.slice(); // its own buffer, to transfer
    const outcome: EspeakOutcome = { ok: true, kind: "pcm", pcm, sampleRate: audio.sampleRate };
    return move({ [transferableSymbol]: [pcm.buffer], [valueSymbol]: outcome });
  }
  return encodeOutcome(encoder, audio.samples, audio.sampleRate, task.fitForJoin);
}

/** The "encode" task: PCM from the main thread (a part of a synthesis) to MP3. */
export async function encode(task: EncodeTask): Promise<EspeakOutcome | Moved> {
  try {
    const { encoder } = await loadRuntime();
    return encodeOutcome(encoder, task.pcm, task.sampleRate, task.fitForJoin);
  } catch (error) {
    return { ok: false, reason: "failed", detail: String(error) };
  }
}

function encodeOutcome(encoder: Mp3Encoder, samples: Int16Array, sampleRate: number, fit: boolean): Moved {
  const pcm = fit && canFitForJoin(sampleRate) ? fitForJoin(samples) : samples;
  const mp3 = encodeMp3(encoder, pcm, sampleRate);
  const outcome: EspeakOutcome = { ok: true, kind: "mp3", mp3, samples: pcm.length, sampleRate };
  // Hand the MP3's buffer to the main thread instead of copying it.
  return move({ [transferableSymbol]: [mp3.buffer], [valueSymbol]: outcome });
}

function describe(run: EspeakRun): string {
  return `espeak-ng exit status ${run.status ?? "unknown"}: ${run.errors.slice(0, 500) || "no WAV written"}`;
}

function isSilent(samples: Int16Array): boolean {
  for (let i = 0; i < samples.length; i++) if (samples[i] !== 0) return false;
  return true;
}
