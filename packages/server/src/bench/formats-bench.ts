import ESpeakNg from "espeak-ng";
import { audioFormats } from "../audio-formats/index.js";
import type { EspeakVoice } from "../speech/espeak/voice.js";
import { readWav } from "../speech/wav.js";
import { summarize } from "./stats.js";

// About a minute of speech, as docs/formats.md's comparison used.
const TEXT = "今天天气很好，我们一起去公园散步吧。公园里有很多人，有的在跑步，有的在打太极拳，还有小朋友在放风筝。".repeat(5);
const RUNS = 5;

/** Each audio format encoding the same speech whole: seconds of speech per second of one core. */
export async function encodeInEveryFormat(
  voice: EspeakVoice,
): Promise<{ seconds: number; rows: { name: string; realTime: number; bytes: number }[] }> {
  const espeak = await ESpeakNg({ arguments: ["-v", voice.espeakVoice, "-w", "/bench.wav", TEXT], print() {}, printErr() {} });
  const wav = readWav(espeak.FS.readFile("/bench.wav"));
  const seconds = wav.samples.length / wav.sampleRate;
  const rows: { name: string; realTime: number; bytes: number }[] = [];
  for (const format of Object.values(audioFormats)) {
    let bytes = (await format.encode(wav.samples, wav.sampleRate)).length; // warm-up
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      bytes = (await format.encode(wav.samples, wav.sampleRate)).length;
      times.push(performance.now() - start);
    }
    rows.push({ name: format.name, realTime: seconds / (summarize(times).p50 / 1000), bytes });
  }
  return { seconds, rows };
}
