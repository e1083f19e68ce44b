/**
 * How the engines' speech becomes a file of the format a request asked for.
 * MP3 is encoded by the engines themselves, in their worker threads, and its
 * parts are joined gaplessly frame by frame (speech/mp3/gapless.ts). Every
 * other format (audio-formats/) is encoded here from the parts' PCM, which
 * join by simply following each other; the encoders run in slices between
 * turns of the event loop.
 */

import { audioFramesOf } from "@fangyan/mp3";
import type { AudioFormatName } from "@fangyan/protocol";
import { encodeInSlices, pushInSlices } from "../audio-formats/format.js";
import { audioFormats, type StreamEncoder } from "../audio-formats/index.js";
import { type Pcm, type SpeechEngine, SynthesisError, type SynthesisRequest } from "../speech/engine.js";
import { concat } from "../ssml/pcm.js";

/** A part of a streamed text on its way into the file: MP3 frames, or samples. */
export type StreamedPart = { kind: "mp3"; frames: Uint8Array } | { kind: "pcm"; pcm: Pcm };

/** The samples of one synthesis; every engine gives them (speech/engine.ts). */
export function pcmOf(engine: SpeechEngine, request: SynthesisRequest): Promise<Pcm> {
  if (!engine.synthesizePcm) throw new SynthesisError("failed", { cause: new Error(`${engine.name} gives no PCM`) });
  return engine.synthesizePcm(request);
}

/** Synthesizes one part of a streamed text for a file of `format`. */
export function synthesizePart(engine: SpeechEngine, format: AudioFormatName, request: SynthesisRequest): Promise<StreamedPart> {
  if (format === "mp3") return engine.synthesize(request).then((result) => ({ kind: "mp3", frames: audioFramesOf(result.mp3) }));
  return pcmOf(engine, request).then((pcm) => ({ kind: "pcm", pcm }));
}

/**
 * The file of a streamed text, part by part: `append` gives each part's bytes
 * as they may be sent, `end` the last bytes, and `seal` the file to store
 * (its header completed where the format states a length).
 */
export class StreamedFile {
  #encoder: StreamEncoder | undefined;

  constructor(private readonly format: AudioFormatName) {}

  async append(part: StreamedPart): Promise<Uint8Array> {
    if (part.kind === "mp3") return part.frames;
    this.#encoder ??= await audioFormats[this.format].start(part.pcm.sampleRate);
    return pushInSlices(this.#encoder, part.pcm.pcm);
  }

  end(): Uint8Array {
    return this.#encoder?.end() ?? new Uint8Array(0);
  }

  seal(file: Uint8Array): Uint8Array {
    return this.#encoder?.seal ? this.#encoder.seal(file) : file;
  }
}

/** A whole file of a format other than MP3 from parts synthesized at once, laid end to end. */
export async function wholeFile(engine: SpeechEngine, format: AudioFormatName, requests: readonly SynthesisRequest[]): Promise<Uint8Array> {
  const parts = await Promise.all(requests.map((request) => pcmOf(engine, request)));
  const [first] = parts;
  if (first === undefined) throw new SynthesisError("nothing_to_speak");
  return encodeInSlices(audioFormats[format], concat(parts.map((part) => part.pcm)), first.sampleRate);
}
