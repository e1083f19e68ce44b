/**
 * What the engine is given for a text and a voice: the front-end's reading
 * for the voice's dialect. POST /tts and `fangyan read` both come here, so
 * the read command shows exactly what synthesis uses.
 */

import { isDialect, type Lexicon, readText } from "@fangyan/frontend";
import type { FastifyBaseLogger } from "fastify";
import type { Voice } from "../speech/voices.js";

/** The JSON shape of `fangyan read --json`. */
export interface SpeechReading {
  voice_id: string;
  dialect_code: string;
  normalized: string;
  syllables: string[];
  engine_input: string;
  /** Characters with no reading (and letters of scripts that are not read): not spoken, in text order. */
  unread: string[];
}

export interface SpeechInput {
  reading: SpeechReading;
  /** The engine input is front-end markup; false for a dialect the front-end does not read. */
  markup: boolean;
}

/**
 * A voice of a dialect the front-end does not know (an operator's own, say)
 * is given the raw text, as before the front-end existed; no voice shipped
 * is one.
 */
export function readForVoice(text: string, voice: Pick<Voice, "id" | "dialect_code">, lexicon?: Lexicon): SpeechInput {
  const base = { voice_id: voice.id, dialect_code: voice.dialect_code };
  if (!isDialect(voice.dialect_code)) {
    return { reading: { ...base, normalized: text, syllables: [], engine_input: text, unread: [] }, markup: false };
  }
  const read = readText(text, { dialect: voice.dialect_code, ...(lexicon ? { lexicon } : {}) });
  return {
    reading: { ...base, normalized: read.normalized, syllables: read.syllables, engine_input: read.engineInput, unread: read.unread },
    markup: true,
  };
}

/**
 * Reads a short text once for each dialect of the catalog, so that the
 * front-end's dictionaries and converters (built on first use, about 0.3 s
 * and tens of MB for Cantonese) are ready before the first request instead of
 * stalling the event loop under it.
 */
export function warmUpReading(voices: ReadonlyArray<Pick<Voice, "id" | "dialect_code">>, lexicon?: Lexicon): void {
  const seen = new Set<string>();
  for (const voice of voices) {
    if (seen.has(voice.dialect_code)) continue;
    seen.add(voice.dialect_code);
    // Simplified characters (the Cantonese reading converts them), a number, a date and Latin letters.
    readForVoice("这是2026年11月22日的第1句：银行行长说OK。", voice, lexicon);
  }
}

/** Logs what a reading leaves unspoken because nothing reads it, so that an operator can add it to the lexicon. */
export function logUnread(input: SpeechInput, log: Pick<FastifyBaseLogger, "warn">): void {
  const { unread, voice_id } = input.reading;
  if (unread.length > 0) log.warn({ voice_id, unread }, "characters with no reading are not spoken");
}

/** Nothing in the text is spoken: the front-end found no syllable (emoji or punctuation only). */
export function isSilent(input: SpeechInput): boolean {
  return input.markup && input.reading.syllables.length === 0;
}
