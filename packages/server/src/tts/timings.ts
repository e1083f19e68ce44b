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
import { type AudioFormatName, sentencesOf, type Timing, type TtsSubtitles, type TtsTimings, toSrt, toVtt } from "@fangyan/protocol";
import type { FastifyBaseLogger } from "fastify";
import { type Sidecar, sidecarKey } from "../audio/ids.js";
import type { AudioStore } from "../audio/store.js";
import { encodeInSlices } from "../audio-formats/format.js";
import { audioFormats } from "../audio-formats/index.js";
import { isSilent, logUnread, readForVoice, type SpeechInput } from "../reading/reader.js";
import { type SpeechEngine, SynthesisError, type SynthesisResult } from "../speech/engine.js";
import { voicedSpan } from "../speech/outcome.js";
import type { Voice } from "../speech/voices.js";
import { pcmOf } from "./encoding.js";
import { synthesisRequest, type TtsParams } from "./request.js";

/** A whole file of the format asked for, and where its sentences are heard. */
export interface TimedAudio {
  file: Uint8Array;
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
  const threads = Math.max(1, engine.threads ?? 1);
  const requests = spoken.map((sentence, i) => synthesisRequest(sentence.input, voice, params, i < spoken.length - 1));
  if (params.format !== "mp3") return timedPcm(params.format, spoken, await mapLimited(requests, threads, (r) => pcmOf(engine, r)));
  const results = await mapLimited(requests, threads, (request) => engine.synthesize(request));
  const [only] = results;
  const file = results.length === 1 && only ? only.mp3 : joinMp3(results.map((result) => result.mp3));
  return { file, timings: { sentences: sentenceTimings(spoken, results) } };
}

/**
 * Formats other than MP3 are encoded from the sentences' samples laid end to
 * end (tts/encoding.ts), so each sentence starts where the samples before it
 * end, and its decoders start at the first sample.
 */
async function timedPcm(
  format: AudioFormatName,
  sentences: ReadonlyArray<{ text: string }>,
  parts: ReadonlyArray<{ pcm: Int16Array; sampleRate: number }>,
): Promise<TimedAudio> {
  const { pcm, sampleRate, timings } = endToEnd(sentences, parts);
  return { file: await encodeInSlices(audioFormats[format], pcm, sampleRate), timings };
}

/** Parts' samples laid end to end, and where each part's sentence is heard on them. */
export function endToEnd(
  sentences: ReadonlyArray<{ text: string }>,
  parts: ReadonlyArray<{ pcm: Int16Array; sampleRate: number }>,
): { pcm: Int16Array; sampleRate: number; timings: TtsTimings } {
  const sampleRate = parts[0]?.sampleRate ?? 0;
  const pcm = new Int16Array(parts.reduce((sum, part) => sum + part.pcm.length, 0));
  const timings: Timing[] = [];
  let offset = 0;
  parts.forEach((part, i) => {
    const heard = voicedSpan(part.pcm);
    const ms = (samples: number) => Math.round(((offset + samples) * 1000) / sampleRate);
    // A part of silence alone (a span at volume 0) has no sentence heard.
    if (heard) timings.push({ text: sentences[i]?.text ?? "", start_ms: ms(heard.from), end_ms: ms(heard.to) });
    pcm.set(part.pcm, offset);
    offset += part.pcm.length;
  });
  return { pcm, sampleRate, timings: { sentences: timings } };
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

const subtitles: ReadonlyArray<[Sidecar, (timings: TtsTimings) => string]> = [
  ["vtt", (timings) => toVtt(timings.sentences)],
  ["srt", (timings) => toSrt(timings.sentences)],
  // Kept for a replay of the request answered from its ledger row; never served.
  ["json", (timings) => JSON.stringify(timings)],
];

/** Writes the subtitle files (and the timings, for replays) beside the audio `key`. */
export async function storeTimings(audio: AudioStore, key: string, timings: TtsTimings): Promise<void> {
  const encoder = new TextEncoder();
  for (const [sidecar, write] of subtitles) await audio.put(sidecarKey(key, sidecar), encoder.encode(write(timings)));
}

/** Removes the audio `key` and every file beside it. */
export async function discardTimed(audio: AudioStore, key: string): Promise<void> {
  await audio.delete(key);
  for (const [sidecar] of subtitles) await audio.delete(sidecarKey(key, sidecar));
}

/** The timings stored beside the audio `key`, or undefined once they are gone (past the retention period). */
export async function storedTimings(audio: AudioStore, key: string): Promise<TtsTimings | undefined> {
  const read = await audio.read(sidecarKey(key, "json"), undefined);
  if (read === undefined || read === "unsatisfiable") return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of read.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as TtsTimings;
}

export async function subtitlesOf(audio: AudioStore, key: string): Promise<TtsSubtitles> {
  return { vtt: await audio.url(sidecarKey(key, "vtt")), srt: await audio.url(sidecarKey(key, "srt")) };
}
