/** What the main thread and the espeak worker send each other. */

export interface EspeakTask {
  /** espeak-ng's argv, reading `inputPath` and writing `outputPath`. */
  arguments: string[];
  /** Written to `inputPath` in the module's in-memory file system. */
  text: string;
}

export type EspeakOutcome =
  | { ok: true; mp3: Uint8Array; samples: number; sampleRate: number }
  | { ok: false; reason: "voice_unavailable" | "no_audio" | "failed"; detail: string };

// Paths inside each call's own Emscripten file system, so calls never share them.
export const inputPath = "/input.txt";
export const outputPath = "/speech.wav";
