/**
 * Speaking an SSML document: each run of one prosody is its own synthesis
 * (the request's speed, pitch and volume times the span's, clamped to the v1
 * ranges), and the runs' samples are laid end to end with the breaks'
 * silence between them. Next to a break the engine's own leading and trailing
 * silence is cut, so that a `<break time="800ms"/>` is 800 ms of silence
 * between the words on either side; where two runs meet inside a sentence
 * (no break, no pause mark), the gap is JOIN_MS. Short texts are encoded once as a whole;
 * long ones one run at a time, fitted for a gapless join (speech/mp3/gapless.ts),
 * and streamed in order.
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import { type Lexicon, planSsml, type SsmlDocument, type SsmlRun } from "@fangyan/frontend";
import { audioFramesOf } from "@fangyan/mp3";
import type { FastifyBaseLogger } from "fastify";
import { isSilent, logUnread, readingRulesOf, readPiecesForVoice } from "../reading/reader.js";
import { type Pcm, type SpeechEngine, SynthesisError } from "../speech/engine.js";
import type { Voice } from "../speech/voices.js";
import { synthesisRequest, type TtsParams, VOICE_CONTROLS } from "../tts/request.js";
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

/** The whole document as one MP3. */
export async function ssmlMp3(speech: SsmlSpeech): Promise<Uint8Array> {
  const { encode } = speech.engine;
  if (!encode) throw new SynthesisError("failed");
  const parts = await Promise.all(ssmlPcmParts(speech));
  const [first] = parts;
  if (first === undefined) throw new SynthesisError("nothing_to_speak");
  const pcm = concat(parts.map((part) => part.pcm));
  return (await encode(pcm, first.sampleRate, false)).mp3;
}

/**
 * A long document for the streamed path: one promise per run, in order, of
 * its MP3 frames without a header (tts/streamed.ts's shape), each run fitted
 * to join the next gaplessly.
 */
export function ssmlFramesInOrder(speech: SsmlSpeech): Array<Promise<Uint8Array | undefined>> {
  const { encode } = speech.engine;
  const parts = ssmlPcmParts(speech);
  return handled(
    parts.map(async (part, i) => {
      if (!encode) throw new SynthesisError("failed");
      const { pcm, sampleRate } = await part;
      if (pcm.length === 0) return undefined;
      return audioFramesOf((await encode(pcm, sampleRate, i < parts.length - 1)).mp3);
    }),
  );
}

/**
 * One promise per run: its speech, trimmed next to breaks, and the silence
 * after it (the first also the silence before it). Syntheses run at most as
 * many at once as the engine has threads, so a document of many short runs
 * does not fill the engine's queue; each run is read just before its
 * synthesis, in a turn of its own, so reading a long document does not hold
 * the event loop.
 */
export function ssmlPcmParts(speech: SsmlSpeech): Array<Promise<Pcm>> {
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
    runs.map(async (run, i): Promise<Pcm> => {
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
      return { pcm: concat([silence(before, rate), words, silence(after, rate)]), sampleRate: rate };
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
