/**
 * The sherpa-onnx worker: holds one loaded model per installed model it is
 * asked for (loaded on its first task, then reused), synthesizes, and encodes
 * to MP3 in the same thread, so only the small MP3 crosses back.
 */

import { workerData } from "piscina";
import type { OfflineTts, OfflineTtsConfig } from "sherpa-onnx-node";
import { createMp3Encoder } from "wasm-media-encoders";
import type { Mp3Encoder } from "../mp3/encoder.js";
import { isMp3SampleRate } from "../mp3/encoder.js";
import { mp3RateFor, resample } from "../mp3/resample.js";
import { type EncodeTask, encodeOutcome, finish, type Moved, type TaskOutput, toInt16, type WorkerOutcome } from "../outcome.js";
import { loadSherpa } from "./runtime.js";
import { type Speakable, speakableFor } from "./speakable.js";

export interface SherpaWorkerData {
  /** sherpa-onnx's configuration of each model, by model name. */
  models: Record<string, OfflineTtsConfig>;
}

export interface SherpaTask {
  model: string;
  text: string;
  speaker: number;
  /** 1 = the model's own pace; sherpa-onnx divides the model's length scale by it. */
  speed: number;
  volume: number;
  fitForJoin: boolean;
  output?: TaskOutput;
}

const { models } = workerData as SherpaWorkerData;
const loaded = new Map<string, { tts: OfflineTts; speakable: Speakable }>();
let encoder: Promise<Mp3Encoder> | undefined;

function ttsFor(name: string): { tts: OfflineTts; speakable: Speakable } | undefined {
  let model = loaded.get(name);
  const config = models[name];
  if (model === undefined && config !== undefined) {
    const reader = config.model.vits ?? config.model.matcha ?? config.model.kokoro;
    const lexicons = reader?.lexicon ? reader.lexicon.split(",") : [];
    model = {
      tts: new (loadSherpa().OfflineTts)(config),
      speakable: speakableFor(lexicons, reader?.tokens ?? "", Boolean(reader?.dataDir)),
    };
    loaded.set(name, model);
  }
  return model;
}

export async function synthesize(task: SherpaTask): Promise<WorkerOutcome | Moved> {
  try {
    encoder ??= createMp3Encoder();
    const model = ttsFor(task.model);
    if (model === undefined) return { ok: false, reason: "voice_unavailable", detail: `model ${task.model} is not loaded` };
    if (!model.speakable(task.text))
      return { ok: false, reason: "nothing_to_speak", detail: "no character of the text is in the model's lexicon" };
    const audio = model.tts.generate({ text: task.text, sid: task.speaker, speed: task.speed });
    if (audio.samples.length === 0) return { ok: false, reason: "nothing_to_speak", detail: "the model's front-end found no token" };
    let pcm = toInt16(audio.samples, task.volume);
    let rate = audio.sampleRate;
    if (!isMp3SampleRate(rate)) {
      pcm = resample(pcm, rate, mp3RateFor(rate));
      rate = mp3RateFor(rate);
    }
    return finish(await encoder, pcm, rate, task.fitForJoin, task.output);
  } catch (error) {
    return { ok: false, reason: "failed", detail: String(error) };
  }
}

export async function encode(task: EncodeTask): Promise<WorkerOutcome | Moved> {
  try {
    encoder ??= createMp3Encoder();
    return encodeOutcome(await encoder, task.pcm, task.sampleRate, task.fitForJoin);
  } catch (error) {
    return { ok: false, reason: "failed", detail: String(error) };
  }
}
