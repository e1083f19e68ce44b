/**
 * `node probe.js CONFIG_JSON`: loads a model with the real sherpa-onnx
 * runtime and speaks a short text, in a process of its own, because
 * sherpa-onnx ends its process on a model it cannot use. `fangyan models add`
 * runs it before installing a model; it prints one JSON line.
 */

import type { OfflineTtsConfig } from "sherpa-onnx-node";
import { loadSherpa } from "./runtime.js";

const config = JSON.parse(process.argv[2] ?? "{}") as OfflineTtsConfig;
const tts = new (loadSherpa().OfflineTts)(config);
const audio = tts.generate({ text: process.argv[3] ?? "你好。", sid: 0, speed: 1 });
let peak = 0;
for (const sample of audio.samples) peak = Math.max(peak, Math.abs(sample));
process.stdout.write(`${JSON.stringify({ sampleRate: tts.sampleRate, speakers: tts.numSpeakers, samples: audio.samples.length, peak })}\n`);
