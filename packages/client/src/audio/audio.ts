import { describeMp3, joinMp3 } from "@fangyan/mp3";
import { type AudioFormatName, PCM_SAMPLE_RATE } from "@fangyan/protocol";
import { FangyanError } from "../core/errors.js";
import { flacDurationMs } from "./flac.js";
import { opusDurationMs } from "./opus.js";
import { readWav, writeWav } from "./wav.js";

/**
 * The formats whose parts `ttsLong` can join into one file: MP3 (frames, one
 * Xing header), WAV and PCM (samples end to end). Opus and FLAC cannot be cut
 * and spliced without decoding and encoding again, which this package does not do.
 */
export const JOINABLE_FORMATS: readonly AudioFormatName[] = ["mp3", "wav", "pcm"];

export function canJoin(format: AudioFormatName): boolean {
  return JOINABLE_FORMATS.includes(format);
}

/** How long a file of the service's is when decoded, in milliseconds. */
export function audioDurationMs(format: AudioFormatName, bytes: Uint8Array): number {
  switch (format) {
    case "mp3":
      return describeMp3(bytes).durationMs;
    case "wav": {
      const wav = readWav(bytes);
      const frameBytes = (wav.channels * wav.bitsPerSample) / 8;
      return frameBytes > 0 && wav.sampleRate > 0 ? (Math.floor(wav.data.length / frameBytes) * 1000) / wav.sampleRate : 0;
    }
    case "pcm":
      return (Math.floor(bytes.length / 2) * 1000) / PCM_SAMPLE_RATE;
    case "opus":
      return opusDurationMs(bytes);
    case "flac":
      return flacDurationMs(bytes);
  }
}

/**
 * The parts of one text as one file. MP3 keeps every frame under one header
 * (a decoder skips only the first part's encoder delay); WAV and PCM lay the
 * samples end to end, so each part starts exactly where the one before ends.
 */
export function joinAudio(format: AudioFormatName, parts: readonly Uint8Array[]): Uint8Array {
  const [only] = parts;
  if (parts.length === 1 && only) return only;
  if (format === "mp3") return joinMp3(parts);
  if (format === "pcm") {
    // A stray odd byte would shift every later sample by half of one.
    return concat(parts.map((part) => part.subarray(0, part.length - (part.length % 2))));
  }
  if (format === "wav") {
    const wavs = parts.map(readWav);
    const [first] = wavs;
    if (!first) return new Uint8Array(0);
    for (const wav of wavs) {
      if (wav.sampleRate !== first.sampleRate || wav.channels !== 1 || wav.bitsPerSample !== 16) {
        throw new FangyanError(
          `The parts' WAV files differ (${wav.sampleRate} Hz, ${wav.channels} channels, ${wav.bitsPerSample} bits, after ${first.sampleRate} Hz mono 16-bit) and cannot be joined`,
        );
      }
    }
    return writeWav(
      first.sampleRate,
      wavs.map((wav) => wav.data.subarray(0, wav.data.length - (wav.data.length % 2))),
    );
  }
  throw new FangyanError(cannotJoinMessage(format, parts.length));
}

/**
 * Why a text of several requests cannot be one file of `format`; `advice`
 * says what to do instead (by default, in the SDK's terms).
 */
export function cannotJoinMessage(format: AudioFormatName, requests: number, advice?: string): string {
  const name = format === "opus" ? "Ogg Opus" : format.toUpperCase();
  const instead =
    advice ??
    `ask for wav (or mp3, or pcm) to get one file, or split the text with splitText and call tts for each part to get one ${format} file per part`;
  return `This text needs ${requests} requests, and their ${name} files cannot be joined into one without decoding and encoding them again; ${instead}`;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
