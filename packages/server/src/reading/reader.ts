/**
 * What the engine is given for a text and a voice: the front-end's reading
 * for the voice's dialect. POST /tts and `fangyan read` both come here, so
 * the read command shows exactly what synthesis uses.
 */

import { type Dialect, isDialect, type Lexicon, type Piece, readPieces } from "@fangyan/frontend";
import type { FastifyBaseLogger } from "fastify";
import { isEspeakVoice } from "../speech/espeak/arguments.js";
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
  /** The engine input is espeak-ng markup; false for plain text (other engines, or no front-end rules). */
  markup: boolean;
}

type ReadVoice = Pick<Voice, "id" | "dialect_code" | "reading" | "engine">;

/**
 * The front-end rules that read a voice's texts: its own setting, else its
 * dialect's rules, Mandarin's for a Mandarin-family group ("cmn-sichuan"),
 * Cantonese's for a Cantonese-family one, else none.
 */
export function readingRulesOf(voice: Pick<Voice, "dialect_code" | "reading">): Dialect | undefined {
  const rules = voice.reading ?? voice.dialect_code;
  if (rules === "none") return undefined;
  if (isDialect(rules)) return rules;
  const family = rules.split("-")[0] ?? rules;
  return isDialect(family) ? family : undefined;
}

/**
 * espeak-ng is given the front-end's markup: its syllables, tones and pauses.
 * Every other engine is given the front-end's normalised text (numbers,
 * dates, money and units written out in words), which its own front-end
 * reads (docs/engines.md says what that honours). A voice without front-end
 * rules is given the text as sent.
 */
export function readForVoice(text: string, voice: ReadVoice, lexicon?: Lexicon): SpeechInput {
  return readPiecesForVoice([{ kind: "text", text }], voice, lexicon);
}

/** readForVoice of text whose readings are partly decided (an SSML run: ssml/). */
export function readPiecesForVoice(pieces: readonly Piece[], voice: ReadVoice, lexicon?: Lexicon): SpeechInput {
  const base = { voice_id: voice.id, dialect_code: voice.dialect_code };
  const dialect = readingRulesOf(voice);
  if (dialect === undefined) {
    const text = pieces.map((piece) => (piece.kind === "text" ? piece.text : piece.units.map((unit) => unit.text).join(""))).join("");
    return { reading: { ...base, normalized: text, syllables: [], engine_input: text, unread: [] }, markup: false };
  }
  const read = readPieces(pieces, { dialect, ...(lexicon ? { lexicon } : {}) });
  const espeak = isEspeakVoice(voice.engine);
  return {
    reading: {
      ...base,
      normalized: read.normalized,
      syllables: read.syllables,
      engine_input: espeak ? read.engineInput : read.normalized,
      unread: read.unread,
    },
    markup: espeak,
  };
}

/**
 * Reads a short text once for each dialect of the catalog, so that the
 * front-end's dictionaries and converters (built on first use, about 0.3 s
 * and tens of MB for Cantonese) are ready before the first request instead of
 * stalling the event loop under it.
 */
export function warmUpReading(voices: readonly ReadVoice[], lexicon?: Lexicon): void {
  const seen = new Set<string>();
  for (const voice of voices) {
    const rules = readingRulesOf(voice) ?? "none";
    if (seen.has(rules)) continue;
    seen.add(rules);
    // Simplified characters (the Cantonese reading converts them), a number, a date and Latin letters.
    readForVoice("这是2026年11月22日的第1句：银行行长说OK。", voice, lexicon);
  }
}

/** Logs what a reading leaves unspoken because nothing reads it, so that an operator can add it to the lexicon. */
export function logUnread(input: SpeechInput, log: Pick<FastifyBaseLogger, "warn">): void {
  const { unread, voice_id } = input.reading;
  if (unread.length > 0) log.warn({ voice_id, unread }, "characters with no reading are not spoken");
}

/** Nothing in the text is spoken: the front-end found no syllable, or plain text has no letter or digit (emoji or punctuation only). */
export function isSilent(input: SpeechInput): boolean {
  if (input.markup) return input.reading.syllables.length === 0;
  return !/[\p{L}\p{N}]/u.test(input.reading.engine_input);
}
