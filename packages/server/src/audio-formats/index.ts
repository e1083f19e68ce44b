/** Every audio format the service can answer in, by name. */

import { flacFormat } from "./flac.js";
import type { AudioFormat, AudioFormatName } from "./format.js";
import { mp3Format } from "./mp3.js";
import { opusFormat } from "./opus.js";
import { pcmFormat } from "./pcm.js";
import { wavFormat } from "./wav.js";

export type { AudioFormat, AudioFormatName, StreamEncoder } from "./format.js";

export const audioFormats: Readonly<Record<AudioFormatName, AudioFormat>> = {
  mp3: mp3Format,
  wav: wavFormat,
  pcm: pcmFormat,
  opus: opusFormat,
  flac: flacFormat,
};

export function isAudioFormatName(value: unknown): value is AudioFormatName {
  return typeof value === "string" && Object.hasOwn(audioFormats, value);
}
