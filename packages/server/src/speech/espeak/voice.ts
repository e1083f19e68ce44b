/**
 * An espeak-ng voice as the catalog names it: the one definition of what a
 * valid espeak voice name, variant, rate and pitch are, used both to check
 * voices.json at start and to build espeak-ng's command line (arguments.ts).
 */

import { z } from "zod";

/** espeak-ng voice names ("cmn", "yue", "cmn-latn-pinyin"). */
export const espeakVoicePattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/i;
/** Variant file names ("f2", "m3", "klatt_2"). */
export const espeakVariantPattern = /^[a-z0-9_]+$/i;

// espeak clamps speed below 80 wpm itself; above 450 it needs the sonic
// library, which this build leaves out, so the range is what it honours.
export const espeakRateRange = [80, 450] as const;
export const espeakPitchRange = [0, 99] as const;

export const espeakVoiceSchema = z.strictObject({
  /** Optional: an entry without `kind` is an espeak-ng voice, as every entry was before other engines. */
  kind: z.literal("espeak-ng").optional(),
  espeakVoice: z.string().regex(espeakVoicePattern, "must be an espeak-ng voice name"),
  variant: z.string().regex(espeakVariantPattern, "must be an espeak-ng variant name").optional(),
  /** words per minute at speed 1.0 */
  rate: z.int().min(espeakRateRange[0]).max(espeakRateRange[1]).optional(),
  /** espeak pitch 0-99 at pitch 1.0 */
  pitch: z.int().min(espeakPitchRange[0]).max(espeakPitchRange[1]).optional(),
  /**
   * The voice's pitch base and range in Hz, as espeak-ng's `pitch` line of a
   * variant reads them (variants.ts): tones move between about base + 5% and
   * base + 65% of (range - base). Absent: the variant's own. The tone tests
   * hold every voice of the catalog to its figures.
   */
  pitchHz: z
    .tuple([z.int().min(40).max(400), z.int().min(40).max(800)])
    .refine(([base, range]) => range > base, "the range (second) must be above the base (first)")
    .optional(),
});

export type EspeakVoice = z.infer<typeof espeakVoiceSchema>;
