/** What the main thread and the espeak worker send each other. */

import type { EspeakVariant } from "./variants.js";

export interface EspeakTask {
  /** The voice variant `-v` names, which the worker adds to the engine's files first. */
  variant?: EspeakVariant;
  /** espeak-ng's argv, reading `inputPath` and writing `outputPath`. */
  arguments: string[];
  /** Written to `inputPath` in the module's in-memory file system. */
  text: string;
  /** Another part follows this one in a joined file: fit its end for a gapless join. */
  fitForJoin: boolean;
  /** "pcm": return the samples unencoded, for the caller to encode in parts. */
  output?: "mp3" | "pcm";
}

/** PCM to encode (the "encode" task). */
export interface EncodeTask {
  pcm: Int16Array;
  sampleRate: number;
  fitForJoin: boolean;
}

type Failure = { ok: false; reason: "voice_unavailable" | "no_audio" | "failed"; detail: string };

export type EspeakOutcome =
  | { ok: true; kind: "mp3"; mp3: Uint8Array; samples: number; sampleRate: number }
  | { ok: true; kind: "pcm"; pcm: Int16Array; sampleRate: number }
  | Failure;

// Paths in the instance's in-memory file system, removed after each call.
export const inputPath = "/input.txt";
export const outputPath = "/speech.wav";
