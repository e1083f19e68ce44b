/**
 * The piscina worker: runs espeak-ng (WASM) for one task and encodes its WAV
 * to MP3 in the same thread, so only the small MP3 crosses back.
 */

import { readFile } from "node:fs/promises";
import v8 from "node:v8";
import vm from "node:vm";
import ESpeakNg, { type WasmImports, type WasmInstance, type WasmModule } from "espeak-ng";
import { move, transferableSymbol, valueSymbol } from "piscina";
import { createMp3Encoder } from "wasm-media-encoders";
import { encodeMp3, type Mp3Encoder } from "../mp3/encoder.js";
import { canFitForJoin, fitForJoin } from "../mp3/gapless.js";
import { type EncodeTask, type EspeakOutcome, type EspeakTask, inputPath, outputPath } from "./task.js";
import { readWav } from "./wav.js";

interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  Instance: new (module: WasmModule, imports: WasmImports) => WasmInstance;
}
// Node's type definitions leave WebAssembly out (it comes with lib "dom",
// which would put the whole browser in scope), so the two calls used are typed here.
const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

interface Runtime {
  espeak: WasmModule;
  encoder: Mp3Encoder;
}

let runtime: Promise<Runtime> | undefined;

// Compiling espeak's 18 MB module takes longer than a short sentence, so it
// happens once per worker; each call then only instantiates it (espeak-ng's
// CLI build exports no callMain, so every call is a fresh module).
function loadRuntime(): Promise<Runtime> {
  runtime ??= (async () => {
    const wasmUrl = new URL("espeak-ng.wasm", import.meta.resolve("espeak-ng"));
    const [espeak, encoder] = await Promise.all([readFile(wasmUrl).then((bytes) => webAssembly.compile(bytes)), createMp3Encoder()]);
    return { espeak, encoder };
  })().catch((error: unknown) => {
    runtime = undefined; // let the next task try again rather than fail forever
    throw error;
  });
  return runtime;
}

/**
 * Each call's espeak instance owns tens of MB of WebAssembly memory, which V8
 * frees only when a full collection finds the instance dead; left to its own
 * pace, a busy worker holds several dead ones (measured: 32 queued calls on 2
 * workers took the process to 420 MB). A full collection after each call keeps
 * one instance's worth per worker; it runs here, off the event loop.
 */
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

// Start compiling as the worker starts; a failure surfaces on the first task.
loadRuntime().catch(() => {});

/** An outcome whose MP3 buffer piscina transfers; the main thread receives the EspeakOutcome. */
type Moved = ReturnType<typeof move>;

export async function synthesize(task: EspeakTask): Promise<EspeakOutcome | Moved> {
  let wav: Uint8Array;
  let encoder: Mp3Encoder;
  try {
    const loaded = await loadRuntime();
    encoder = loaded.encoder;
    const result = await runEspeak(loaded.espeak, task);
    if (result.status !== 0 || result.wav === undefined) {
      const voiceMissing = result.errors.includes("voice does not exist");
      return { ok: false, reason: voiceMissing ? "voice_unavailable" : "failed", detail: describe(result) };
    }
    wav = result.wav;
  } catch (error) {
    // WASM traps (stack overflow, out of memory) land here; the next call gets a fresh module.
    return { ok: false, reason: "failed", detail: String(error) };
  }

  collectGarbage(); // the espeak instance is unreachable now; its WAV was copied out
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

interface EspeakRun {
  status: number | undefined;
  wav: Uint8Array | undefined;
  errors: string;
}

async function runEspeak(espeak: WasmModule, task: EspeakTask): Promise<EspeakRun> {
  const errors: string[] = [];
  let status: number | undefined;
  const module = await ESpeakNg({
    arguments: task.arguments,
    thisProgram: "espeak-ng",
    print: () => {},
    printErr: (line) => errors.push(line),
    preRun: [(m) => m.FS.writeFile(inputPath, new TextEncoder().encode(task.text))],
    // Emscripten's Node default sets process.exitCode; keep the status to ourselves.
    quit: (code, toThrow) => {
      status = code;
      throw toThrow;
    },
    // Synchronous, so an instantiation error rejects ESpeakNg() instead of leaving it pending.
    instantiateWasm: (imports, receiveInstance) => {
      const instance = new webAssembly.Instance(espeak, imports);
      receiveInstance(instance, espeak);
      return instance.exports;
    },
  });
  // main() has already run: Emscripten calls it right after resolving the module.
  let wav: Uint8Array | undefined;
  try {
    wav = module.FS.readFile(outputPath);
  } catch {
    wav = undefined;
  }
  return { status, wav, errors: errors.join("\n") };
}

function describe(run: EspeakRun): string {
  return `espeak-ng exit status ${run.status ?? "unknown"}: ${run.errors.slice(0, 500) || "no WAV written"}`;
}

function isSilent(samples: Int16Array): boolean {
  for (let i = 0; i < samples.length; i++) if (samples[i] !== 0) return false;
  return true;
}
