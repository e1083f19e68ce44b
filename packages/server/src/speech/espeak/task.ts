/** What the main thread sends the espeak worker. */

import type { TaskOutput } from "../outcome.js";

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
  output?: TaskOutput;
}

// Paths in the instance's in-memory file system, removed after each call.
export const inputPath = "/input.txt";
export const outputPath = "/speech.wav";
