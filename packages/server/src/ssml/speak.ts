/**
 * Speaking an SSML document: each run of one prosody is its own synthesis
 * (the request's speed, pitch and volume times the span's, clamped to the v1
 * ranges), and the runs' samples are laid end to end with the breaks'
 * silence between them. Next to a break the engine's own leading and trailing
 * silence is cut, so that a `<break time="800ms"/>` is 800 ms of silence
 * between the words on either side; where two runs meet inside a sentence
 * (no break, no pause mark), the gap is JOIN_MS. Short texts are encoded once as a whole;
 * long ones one run at a time (each sentence is a run: frontend ssml/plan.ts),
 * fitted for a gapless join (speech/mp3/gapless.ts), and streamed in order.
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import { type Lexicon, planSsml, type SsmlDocument, type SsmlRun } from "@fangyan/frontend";
import { audioFramesOf } from "@fangyan/mp3";
import type { AudioFormatName } from "@fangyan/protocol";
import type { FastifyBaseLogger } from "fastify";
import { encodeInSlices } from "../audio-formats/format.js";
import { audioFormats } from "../audio-formats/index.js";
import { isSilent, logUnread, readingRulesOf, readPiecesForVoice } from "../reading/reader.js";
import { type Pcm, type SpeechEngine, SynthesisError } from "../speech/engine.js";
import type { Voice } from "../speech/voices.js";
import type { StreamedPart } from "../tts/encoding.js";
import { synthesisRequest, type TtsParams, VOICE_CONTROLS } from "../tts/request.js";
import { endToEnd, type TimedAudio } from "../tts/timings.js";
import { concat, silence, trimmed } from "./pcm.js";

export interface SsmlSpeech {
  engine: SpeechEngine;
  voice: Voice;
  /** The request's own controls, which every span's prosody multiplies. */
  params: Pick<TtsParams, "speed" | "pitch" | "volume">;
  document: SsmlDocument;
  lexicon?: Lexicon | undefined;
  log?: Pick<FastifyBaseLogger, "warn"> | undefined;
}

/**
 * The whole document as a file of `format`, and where each run is heard: a
 * run is a sentence, or the part of one between breaks or prosody changes.
 * MP3 is encoded once, whole, on the engine's threads; the other formats here
 * (tts/encoding.ts). The runs' samples are laid end to end, so the timings are
 * exact on the decoded file.
 */
export async function ssmlTimed(speech: SsmlSpeech, format: AudioFormatName): Promise<TimedAudio> {
  const parts = await Promise.all(ssmlPcmParts(speech));
  if (parts.length === 0) throw new SynthesisError("nothing_to_speak");
  const { pcm, sampleRate, timings } = endToEnd(parts, parts);
  const { encode } = speech.engine;
  if (format !== "mp3") return { file: await encodeInSlices(audioFormats[format], pcm, sampleRate), timings };
  if (!encode) throw new SynthesisError("failed", { cause: new Error(`${speech.engine.name} does not encode`) });
  return { file: (await encode(pcm, sampleRate, false)).mp3, timings };
}

/**
 * A long document for the streamed path: one promise per run, in order, of
 * its part of the file (tts/encoding.ts): MP3 frames without a header, each
 * run fitted to join the next gaplessly, or the run's samples for the other formats.
 */
export function ssmlPartsInOrder(speech: SsmlSpeech, format: AudioFormatName): Array<Promise<StreamedPart | undefined>> {
  const { encode } = speech.engine;
  const parts = ssmlPcmParts(speech);
  return handled(
    parts.map(async (part, i): Promise<StreamedPart | undefined> => {
      const { pcm, sampleRate } = await part;
      if (pcm.length === 0) return undefined;
      if (format !== "mp3") return { kind: "pcm", pcm: { pcm, sampleRate } };
      if (!encode) throw new SynthesisError("failed", { cause: new Error(`${speech.engine.name} does not encode`) });
      return { kind: "mp3", frames: audioFramesOf((await encode(pcm, sampleRate, i < parts.length - 1)).mp3) };
    }),
  );
}

/** A run as subtitles show it: its readings' override marks left out. */
function shown(run: SsmlRun): string {
  return run.text.replace(/\[[^\]]*\]/gu, "").trim();
}

/**
 * One promise per run: its speech, trimmed next to breaks, and the silence
 * after it (the first also the silence before it). Syntheses run at most as
 * many at once as the engine has threads, so a document of many short runs
 * does not fill the engine's queue; each run is read just before its
 * synthesis, in a turn of its own, so reading a long document does not hold
 * the event loop.
 */
export function ssmlPcmParts(speech: SsmlSpeech): Array<Promise<Pcm & { text: string }>> {
  const { engine, voice, document } = speech;
  const synthesizePcm = engine.synthesizePcm?.bind(engine);
  if (!synthesizePcm) return [Promise.reject(new SynthesisError("failed"))];
  const plan = planSsml(document, readingRulesOf(voice));
  const { runs } = plan;
  if (runs.length === 0) return [Promise.reject(new SynthesisError("nothing_to_speak"))];
  const limit = limiter(Math.max(1, engine.threads ?? 1));
  const spoken = handled(runs.map((run) => limit(() => speakRun(speech, run, synthesizePcm))));
  const sampleRate = handled([firstRate(spoken)])[0] ?? Promise.reject(new SynthesisError("nothing_to_speak"));
  return handled(
    runs.map(async (run, i): Promise<Pcm & { text: string }> => {
      const [own, rate] = await Promise.all([spoken[i], sampleRate]);
      const previous = runs[i - 1];
      const next = runs[i + 1];
      // A span at volume 0 keeps its length in silence: there is nothing to trim it to.
      const audible = run.prosody.volume > 0;
      const trimStart = audible && (previous ? previous.pauseAfterMs > 0 || meetMidSentence(previous, run) : plan.leadingMs > 0);
      const joined = next !== undefined && run.pauseAfterMs === 0 && meetMidSentence(run, next);
      const trimEnd = audible && (run.pauseAfterMs > 0 || joined);
      const after = run.pauseAfterMs > 0 ? run.pauseAfterMs : joined ? JOIN_MS : 0;
      const words = own ? trimmed(own.pcm, trimStart, trimEnd) : new Int16Array(0);
      const before = i === 0 ? plan.leadingMs : 0;
      return { pcm: concat([silence(before, rate), words, silence(after, rate)]), sampleRate: rate, text: shown(run) };
    }),
  );
}

/**
 * The gap between two runs that meet inside a sentence (a prosody span that
 * starts or ends between words, no break): about the gap espeak-ng leaves
 * between two words, instead of the end-of-utterance silence (about 300 ms)
 * each synthesis ends with.
 */
export const JOIN_MS = 40;

const PAUSE_MARK = /[。！？!?；;，,、：:…]/u;

/** No pause mark where one run ends and the next begins: the next carries on the same sentence. */
function meetMidSentence(run: SsmlRun, next: SsmlRun): boolean {
  return !PAUSE_MARK.test(run.text.trimEnd().slice(-1)) && !PAUSE_MARK.test(next.text.trimStart().charAt(0));
}

async function speakRun(
  speech: SsmlSpeech,
  run: SsmlRun,
  synthesizePcm: NonNullable<SpeechEngine["synthesizePcm"]>,
): Promise<Pcm | undefined> {
  const { voice, params, lexicon, log } = speech;
  await nextTurn();
  const input = readPiecesForVoice(run.pieces, voice, lexicon);
  if (log) logUnread(input, log);
  if (isSilent(input)) return undefined;
  const controls = {
    speed: clamp(params.speed * run.prosody.rate, VOICE_CONTROLS.speed),
    pitch: clamp(params.pitch * run.prosody.pitch, VOICE_CONTROLS.pitch),
    volume: run.prosody.volume === 0 ? 0 : clamp(params.volume * run.prosody.volume, VOICE_CONTROLS.volume),
  };
  return synthesizePcm(synthesisRequest(input, voice, controls, false));
}

async function firstRate(spoken: ReadonlyArray<Promise<Pcm | undefined>>): Promise<number> {
  for (const run of spoken) {
    const pcm = await run;
    if (pcm) return pcm.sampleRate;
  }
  throw new SynthesisError("nothing_to_speak");
}

function clamp(value: number, { min, max }: { min: number; max: number }): number {
  return Math.min(max, Math.max(min, value));
}

/** At most `n` tasks at once, the others started in order as those finish. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** Parts after a failure may never be awaited: their rejection is not an error of its own. */
function handled<T>(promises: Array<Promise<T>>): Array<Promise<T>> {
  for (const promise of promises) promise.catch(() => {});
  return promises;
}
