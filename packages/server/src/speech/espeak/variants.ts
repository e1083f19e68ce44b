/**
 * The voice variants the engine speaks with: espeak-ng's own (f3, m1, …) as
 * the voice catalog names them, each rewritten into a variant of ours.
 *
 * - Without its echo. espeak-ng's f2, f3, f4 and m2 add a copy of the speech
 *   120-140 ms later at -28 or -25 dB (`echo 120 10`: 10/256 of the
 *   amplitude), which sounds like a small tiled room and blurs every syllable
 *   into the next.
 * - With the catalog's pitch base and range (`pitchHz`) in place of the
 *   variant's. Tone contours are drawn inside that range, and espeak-ng's
 *   stock ranges move a Cantonese or Mandarin tone by a third of what a
 *   speaker does (docs/reading.md, "Tones").
 *
 * Pure: the worker writes the text into the engine's file system (instance.ts).
 */

import type { EspeakVoice } from "./voice.js";

export interface EspeakVariant {
  /** The file name under espeak-ng's voices/!v, which follows "+" in `-v`. */
  name: string;
  /** The espeak-ng variant it is made from; absent: espeak-ng's defaults. */
  from?: string;
  pitchHz?: readonly [number, number];
}

/**
 * The variant for a voice, or undefined when it needs none (no variant and
 * no pitch of its own). The name says what the file holds: "fy-f3-110-390"
 * is f3 with pitch 110 390. Catalog variant names cannot hold "-", so a name
 * of ours never meets one of espeak-ng's.
 */
export function variantOf(voice: EspeakVoice): EspeakVariant | undefined {
  if (voice.variant === undefined && voice.pitchHz === undefined) return undefined;
  const name = ["fy", voice.variant ?? "default", ...(voice.pitchHz ?? [])].join("-");
  return {
    name,
    ...(voice.variant !== undefined ? { from: voice.variant } : {}),
    ...(voice.pitchHz !== undefined ? { pitchHz: voice.pitchHz } : {}),
  };
}

/** The variant file: espeak-ng's lines but its echo (and its pitch, when ours is given), then our pitch. */
export function variantText(stock: string, pitchHz: readonly [number, number] | undefined): string {
  const kept = stock.split("\n").filter((line) => {
    const keyword = line.trim().split(/\s+/, 1)[0];
    return keyword !== "echo" && !(pitchHz !== undefined && keyword === "pitch");
  });
  const lines = [kept.join("\n").trim(), ...(pitchHz !== undefined ? [`pitch ${pitchHz[0]} ${pitchHz[1]}`] : [])];
  return `${lines.filter((line) => line !== "").join("\n")}\n`;
}
