/**
 * Sentence timings (`"timings": true`): every sentence of the text is
 * synthesized as a part of its own and the parts are joined gaplessly, so
 * where each sentence lies on the joined file is exact, for every engine. A
 * part starts where the frames of the parts before it end
 * (speech/mp3/gapless.ts: each part occupies a whole number of frames, and
 * the decoder skips the file's encoder delay once), and within its part a
 * sentence is heard from its first to its last sample louder than silence
 * (the worker measures them on the very samples it encodes).
 *
 * No character or syllable timings: the npm espeak-ng build is its
 * command-line program, whose synthesis events (word, phoneme, mark) never
 * leave it, and the other engines report none. `chars` is left out rather
 * than guessed.
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import type { Lexicon } from "@fangyan/frontend";
import { describeMp3, joinMp3 } from "@fangyan/mp3";
import { sentencesOf, type Timing, type TtsSubtitles, type TtsTimings, toSrt, toVtt } from "@fangyan/protocol";
import type { FastifyBaseLogger } from "fastify";
import type { AudioStore } from "../audio/store.js";
import { isSilent, logUnread, readForVoice, type SpeechInput } from "../reading/reader.js";
import { type SpeechEngine, SynthesisError, type SynthesisResult } from "../speech/engine.js";
import type { Voice } from "../speech/voices.js";
import { synthesisRequest, type TtsParams } from "./request.js";

/** A joined MP3 and where its sentences are heard. */
export interface TimedAudio {
  mp3: Uint8Array;
  timings: TtsTimings;
}

interface SpokenSentence {
  text: string;
  input: SpeechInput;
}

/**
 * The whole text, one synthesis per sentence, at most `engine.threads` at a
 * time for this request so that one long text does not fill the engine's
 * queue ahead of everyone else's. Sentences with nothing to speak get no
 * timing. Reading gives the event loop a turn between sentences.
 */
export async function synthesizeTimed(
  engine: SpeechEngine,
  voice: Voice,
  params: TtsParams,
  lexicon: Lexicon | undefined,
  log: Pick<FastifyBaseLogger, "warn">,
): Promise<TimedAudio> {
  const spoken: SpokenSentence[] = [];
  for (const sentence of sentencesOf(params.text)) {
    await nextTurn();
    const input = readForVoice(sentence, voice, lexicon);
    logUnread(input, log);
    if (!isSilent(input)) spoken.push({ text: sentence.trim(), input });
  }
  if (spoken.length === 0) throw new SynthesisError("nothing_to_speak");
  const results = await mapLimited(spoken, Math.max(1, engine.threads ?? 1), (sentence, i) =>
    engine.synthesize(synthesisRequest(sentence.input, voice, params, i < spoken.length - 1)),
  );
  const [only] = results;
  const mp3 = results.length === 1 && only ? only.mp3 : joinMp3(results.map((result) => result.mp3));
  return { mp3, timings: { sentences: sentenceTimings(spoken, results) } };
}

/** Each part laid after the whole frames of the parts before it; its sentence from its first to its last sound. */
export function sentenceTimings(sentences: ReadonlyArray<{ text: string }>, parts: readonly SynthesisResult[]): Timing[] {
  const timings: Timing[] = [];
  let offset = 0;
  parts.forEach((part, i) => {
    const { frames, samplesPerFrame } = describeMp3(part.mp3);
    const ms = (samples: number) => Math.round(((offset + samples) * 1000) / part.sampleRate);
    // An engine that does not say where its sound is: the whole part, up to where its encoded samples end.
    const heard = part.voiced ?? { from: 0, to: Math.round((part.durationMs * part.sampleRate) / 1000) };
    timings.push({ text: sentences[i]?.text ?? "", start_ms: ms(heard.from), end_ms: ms(heard.to) });
    offset += frames * samplesPerFrame;
  });
  return timings;
}

/** `run` over `items` with at most `limit` running at once; the first failure stops the rest from starting. */
async function mapLimited<T, R>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await run(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

const sidecars = {
  vtt: (timings: TtsTimings) => toVtt(timings.sentences),
  srt: (timings: TtsTimings) => toSrt(timings.sentences),
  // Kept for a replay of the request answered from its ledger row; never served.
  "timings.json": (timings: TtsTimings) => JSON.stringify(timings),
} as const;

/** Writes the subtitle files (and the timings, for replays) beside the audio `id`. */
export async function storeTimings(audio: AudioStore, id: string, timings: TtsTimings): Promise<void> {
  const encoder = new TextEncoder();
  for (const [file, write] of Object.entries(sidecars) as Array<[keyof typeof sidecars, (t: TtsTimings) => string]>) {
    await audio.put(id, encoder.encode(write(timings)), file);
  }
}

/** The timings stored beside the audio `id`, or undefined once they are gone (past the retention period). */
export async function storedTimings(audio: AudioStore, id: string): Promise<TtsTimings | undefined> {
  const read = await audio.read(id, undefined, "timings.json");
  if (read === undefined || read === "unsatisfiable") return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of read.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as TtsTimings;
}

export async function subtitlesOf(audio: AudioStore, id: string): Promise<TtsSubtitles> {
  return { vtt: await audio.url(id, "vtt"), srt: await audio.url(id, "srt") };
}
