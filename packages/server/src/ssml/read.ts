/**
 * `fangyan read` of an SSML text: what synthesis will speak, run by run, and
 * what each element did. The same plan and readings as POST /tts (speak.ts).
 */

import { type Lexicon, planSsml, type SsmlDocument } from "@fangyan/frontend";
import { readingRulesOf, readPiecesForVoice, type SpeechReading } from "../reading/reader.js";
import type { Voice } from "../speech/voices.js";

export interface SsmlRunReading {
  /** The run's text, readings the document decided in override marks (`重[zhong4]`). */
  text: string;
  /** Multipliers of the request's speed, pitch and volume. */
  rate: number;
  pitch: number;
  volume: number;
  /** Silence after the run's speech. */
  pause_after_ms: number;
  normalized: string;
  syllables: string[];
  engine_input: string;
}

/** The JSON of `fangyan read --json` for SSML: the whole document as one reading, plus its runs and elements. */
export interface SsmlSpeechReading extends SpeechReading {
  ssml: {
    leading_ms: number;
    runs: SsmlRunReading[];
    elements: Array<{ element: string; line: number; column: number; did: string }>;
  };
}

type ReadVoice = Pick<Voice, "id" | "dialect_code" | "reading" | "engine">;

export function readSsmlForVoice(document: SsmlDocument, voice: ReadVoice, lexicon?: Lexicon): SsmlSpeechReading {
  const plan = planSsml(document, readingRulesOf(voice));
  const runs = plan.runs.map((run) => ({ run, reading: readPiecesForVoice(run.pieces, voice, lexicon).reading }));
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    voice_id: voice.id,
    dialect_code: voice.dialect_code,
    normalized: runs.map(({ reading }) => reading.normalized).join(""),
    syllables: runs.flatMap(({ reading }) => reading.syllables),
    engine_input: runs.map(({ reading }) => reading.engine_input).join(" "),
    unread: runs.flatMap(({ reading }) => reading.unread),
    ssml: {
      leading_ms: plan.leadingMs,
      runs: runs.map(({ run, reading }) => ({
        text: run.text,
        rate: round(run.prosody.rate),
        pitch: round(run.prosody.pitch),
        volume: round(run.prosody.volume),
        pause_after_ms: run.pauseAfterMs,
        normalized: reading.normalized,
        syllables: reading.syllables,
        engine_input: reading.engine_input,
      })),
      elements: plan.notes.map(({ element, line, column, did }) => ({ element, line, column, did })),
    },
  };
}

/** The plain-text lines `fangyan read` adds for SSML. */
export function describeSsml({ ssml }: SsmlSpeechReading): string[] {
  return [
    ...(ssml.leading_ms > 0 ? [`silence:      ${ssml.leading_ms} ms first`] : []),
    ...ssml.runs.map(
      (run, i) =>
        `run ${i + 1}:${" ".repeat(Math.max(1, 8 - String(i + 1).length))}rate ×${run.rate}, pitch ×${run.pitch}, volume ×${run.volume}` +
        `${run.pause_after_ms > 0 ? `, then ${run.pause_after_ms} ms of silence` : ""}: ${run.syllables.join(" ")}`,
    ),
    ...ssml.elements.map(
      (note) =>
        `<${note.element}> ${note.line}:${note.column}${" ".repeat(Math.max(1, 10 - note.element.length - `${note.line}:${note.column}`.length))}${note.did}`,
    ),
  ];
}
