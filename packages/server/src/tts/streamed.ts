/**
 * The parts of a streamed text, synthesized in parallel and handed over in
 * text order. The front-end reads a long text slowly (about 30 µs a
 * character), so only the first part is read before its synthesis starts,
 * and the rest is read in turns that leave the event loop free.
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import type { Lexicon } from "@fangyan/frontend";
import type { FastifyBaseLogger } from "fastify";
import { isSilent, logUnread, readForVoice, type SpeechInput } from "../reading/reader.js";
import type { SynthesisRequest } from "../speech/engine.js";
import type { Voice } from "../speech/voices.js";
import { sentencesOf } from "./parts.js";
import { synthesisRequest, type TtsParams } from "./request.js";

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Parts after a failure are never awaited; their rejection is not an error of its own.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * One promise per chunk, in order: what `synthesize` made of it (MP3 audio
 * frames without a header, or samples: tts/encoding.ts), or undefined for a
 * chunk with nothing to speak. The first chunk is queued at once; the others are read
 * sentence by sentence meanwhile, on the core the first does not use, and
 * queued once it is done, so that nothing slows the first audio down.
 */
export function synthesizeInOrder<T>(
  synthesize: (request: SynthesisRequest) => Promise<T>,
  voice: Voice,
  params: TtsParams,
  chunks: readonly string[],
  lexicon: Lexicon | undefined,
  log?: Pick<FastifyBaseLogger, "warn">,
): Array<Promise<T | undefined>> {
  const parts = chunks.map(() => deferred<T | undefined>());
  const request = (input: SpeechInput, i: number) => synthesisRequest(input, voice, params, i < chunks.length - 1);
  const queue = (i: number, input: SpeechInput | undefined) => {
    const part = parts[i];
    if (!part) return;
    if (input === undefined) {
      part.resolve(undefined);
      return;
    }
    synthesize(request(input, i)).then(part.resolve, part.reject);
  };

  const submit = async () => {
    const [first, ...rest] = chunks;
    if (first === undefined) return;
    queue(0, readChunk(first, voice, lexicon, log));
    const read: Array<SpeechInput | undefined> = [];
    for (const chunk of rest) {
      const sentences: SpeechInput[] = [];
      for (const sentence of sentencesOf(chunk)) {
        // A turn for the event loop between sentences: reading 5 000 characters takes 150-300 ms.
        await nextTurn();
        const input = readForVoice(sentence, voice, lexicon);
        if (log) logUnread(input, log);
        if (!isSilent(input)) sentences.push(input);
      }
      read.push(joinReadings(sentences));
    }
    await parts[0]?.promise.catch(() => undefined);
    for (const [i, input] of read.entries()) queue(i + 1, input);
  };
  submit().catch((error: unknown) => {
    for (const part of parts) part.reject(error);
  });
  return parts.map((part) => part.promise);
}

function readChunk(
  chunk: string,
  voice: Voice,
  lexicon: Lexicon | undefined,
  log: Pick<FastifyBaseLogger, "warn"> | undefined,
): SpeechInput | undefined {
  const input = readForVoice(chunk, voice, lexicon);
  if (log) logUnread(input, log);
  return isSilent(input) ? undefined : input;
}

/** Sentences read one by one, as one engine input. */
function joinReadings(sentences: readonly SpeechInput[]): SpeechInput | undefined {
  const [first] = sentences;
  if (first === undefined) return undefined;
  return {
    markup: first.markup,
    reading: {
      ...first.reading,
      normalized: sentences.map((s) => s.reading.normalized).join(""),
      syllables: sentences.flatMap((s) => s.reading.syllables),
      // Markup joins its clauses with a space; plain text (engines other than espeak-ng) as written.
      engine_input: sentences.map((s) => s.reading.engine_input).join(first.markup ? " " : ""),
      unread: sentences.flatMap((s) => s.reading.unread),
    },
  };
}
