import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import ESpeakNg from "espeak-ng";
import { createMp3Encoder } from "wasm-media-encoders";
import type { EspeakVoice } from "../speech/espeak/voice.js";
import { encodeMp3 } from "../speech/mp3/encoder.js";
import { readWav } from "../speech/wav.js";
import { summarize } from "./stats.js";

const TEXT = "今天天气很好，我们一起去公园散步吧。公园里有很多人，有的在跑步，有的在打太极拳，还有小朋友在放风筝。".repeat(4);
const RUNS = 7;

/**
 * The same WAV through LAME compiled to WebAssembly (in-process, as the
 * service runs it) and through the native `lame` command (process start
 * included, which is small next to the encode of half a minute of speech).
 */
export async function encodeWavFileWithWasm(voice: EspeakVoice): Promise<{ seconds: number; wasmMs: number; nativeMs: number }> {
  const espeak = await ESpeakNg({ arguments: ["-v", voice.espeakVoice, "-w", "/bench.wav", TEXT], print() {}, printErr() {} });
  const wavBytes = espeak.FS.readFile("/bench.wav");
  const wav = readWav(wavBytes);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "fangyan-lame-"));
  const wavFile = path.join(dir, "in.wav");
  await fs.writeFile(wavFile, wavBytes);

  const encoder = await createMp3Encoder();
  const wasm: number[] = [];
  const native: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let start = performance.now();
    encodeMp3(encoder, wav.samples, wav.sampleRate);
    wasm.push(performance.now() - start);
    start = performance.now();
    const result = spawnSync("lame", ["--silent", "-b", "48", "--cbr", "-m", "m", wavFile, path.join(dir, "out.mp3")]);
    native.push(performance.now() - start);
    if (result.status !== 0) throw new Error(`lame failed: ${result.stderr.toString()}`);
  }
  await fs.rm(dir, { recursive: true, force: true });
  return { seconds: wav.samples.length / wav.sampleRate, wasmMs: summarize(wasm).p50, nativeMs: summarize(native).p50 };
}
