/**
 * Turns a synthesis request into espeak-ng's command line and input text.
 * Pure, so the mapping and the text clean-up are tested without a worker.
 */

import type { EngineVoice, SynthesisRequest } from "../engine.js";
import { type EspeakTask, inputPath, outputPath } from "./task.js";
import { variantOf } from "./variants.js";
import { type EspeakVoice, espeakPitchRange, espeakRateRange, espeakVariantPattern, espeakVoicePattern } from "./voice.js";

/** espeak-ng's own defaults, which the request's 1.0 multipliers mean. */
export const espeakDefaults = { rate: 175, pitch: 50, amplitude: 100 } as const;

const amplitudeRange = [0, 200] as const;

/** The argv and text for one call, or a reason the request cannot be spoken. */
export type PreparedTask = { ok: true; task: EspeakTask } | { ok: false; reason: "nothing_to_speak" | "voice_unavailable" };

export function prepareEspeakTask(request: SynthesisRequest): PreparedTask {
  const espeakVoice = isEspeakVoice(request.voice) ? request.voice : undefined;
  const voice = espeakVoice && espeakVoiceName(espeakVoice);
  if (espeakVoice === undefined || voice === undefined) return { ok: false, reason: "voice_unavailable" };
  const text = request.markup ? markupText(request.text) : speakableText(request.text);
  if (text === undefined) return { ok: false, reason: "nothing_to_speak" };

  const rate = scale(espeakVoice.rate ?? espeakDefaults.rate, request.speed, espeakRateRange);
  const pitch = scale(espeakVoice.pitch ?? espeakDefaults.pitch, request.pitch, espeakPitchRange);
  const amplitude = scale(espeakDefaults.amplitude, request.volume, amplitudeRange);
  const variant = variantOf(espeakVoice);
  return {
    ok: true,
    task: {
      ...(variant !== undefined ? { variant } : {}),
      // The text goes in a file (-f), not argv: Emscripten copies argv onto
      // the module's 64 KB stack, and measured here about 25 KB of text (some
      // 8 000 Chinese characters) overflows it. A file also means no text can
      // ever be read as an option, whatever it starts with.
      arguments: ["-v", voice, "-s", String(rate), "-p", String(pitch), "-a", String(amplitude), "-w", outputPath, "-f", inputPath],
      text,
      fitForJoin: request.followedByMore === true,
    },
  };
}

/** An entry without `kind` is espeak-ng's: the catalog's entries from before other engines. */
export function isEspeakVoice(voice: EngineVoice): voice is EspeakVoice {
  return voice.kind === undefined || voice.kind === "espeak-ng";
}

/** The espeak-ng languages of some voices ("cmn" for "cmn" or "cmn-latn-pinyin"), each once; other engines' voices are skipped. */
export function espeakLanguagesOf(voices: readonly EngineVoice[]): string[] {
  const names = voices.filter(isEspeakVoice).map((voice) => voice.espeakVoice);
  return [...new Set(names.map((name) => name.split("-")[0] ?? name))];
}

/**
 * "cmn", or "cmn+fy-f2-110-390" for a voice with a variant or a pitch of its
 * own (variants.ts), or undefined when the names could be read as something
 * else (checked again: requests are built in code too).
 */
export function espeakVoiceName(voice: EspeakVoice): string | undefined {
  if (!espeakVoicePattern.test(voice.espeakVoice)) return undefined;
  if (voice.variant !== undefined && !espeakVariantPattern.test(voice.variant)) return undefined;
  if (voice.pitchHz?.some((hz) => !Number.isInteger(hz))) return undefined;
  const variant = variantOf(voice);
  return variant === undefined ? voice.espeakVoice : `${voice.espeakVoice}+${variant.name}`;
}

/**
 * The text as espeak should read it, or undefined when it has no letter or
 * digit: espeak turns punctuation- or emoji-only text into 0.3 s of silence,
 * and an API client is better told that than sent (and billed for) silence.
 */
export function speakableText(text: string): string | undefined {
  if (!/[\p{L}\p{N}]/u.test(text)) return undefined;
  return (
    text
      // espeak reads its input as a C string, so a NUL would silently cut the
      // text short; other control characters are not speech either.
      .replace(/\p{Cc}/gu, (c) => (c === "\n" || c === "\r" || c === "\t" ? c : " "))
      // "[[" switches espeak to phoneme input until "]]", which speaks garbage or,
      // unclosed, nothing at all; a space keeps plain brackets plain.
      .replace(/\[(?=\[)/g, "[ ")
  );
}

/**
 * Front-end markup is ASCII phoneme mnemonics and punctuation; anything else
 * (a control character, text from elsewhere) means it did not come from the
 * front-end, and it is not spoken.
 */
export function markupText(markup: string): string | undefined {
  if (!/[A-Za-z]/.test(markup) || !/^[\x20-\x7e]*$/.test(markup)) return undefined;
  return markup;
}

function scale(base: number, factor: number, [min, max]: readonly [number, number]): number {
  const value = Math.round(base * (Number.isFinite(factor) ? factor : 1));
  return Math.min(max, Math.max(min, value));
}
