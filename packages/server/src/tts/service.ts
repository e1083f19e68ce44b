import type { Lexicon } from "@fangyan/frontend";
import { joinMp3 } from "@fangyan/mp3";
import {
  billableChars,
  centsDown,
  centsUp,
  costMicro as costOf,
  microToYuan,
  pricePerWanMicro,
  type TtsResult,
  type TtsTimings,
} from "@fangyan/protocol";
import type { FastifyBaseLogger } from "fastify";
import { audioKey, newAudioId, shortAudioId } from "../audio/ids.js";
import type { AudioInProgress, Production } from "../audio/in-progress.js";
import type { AudioStore } from "../audio/store.js";
import type { StorageStatus } from "../disk/free-space.js";
import { ServiceError } from "../errors.js";
import { isSilent, logUnread, readForVoice } from "../reading/reader.js";
import { type SpeechEngine, type SpeechEngines, SynthesisError, type SynthesisFailure, type SynthesisRequest } from "../speech/engine.js";
import { pauseNear } from "../speech/mp3/gapless.js";
import type { Voice, VoiceCatalog } from "../speech/voices.js";
import { ssmlPartsInOrder, ssmlTimed } from "../ssml/speak.js";
import type { ChargeInput, KeyOwner, LedgerEntry, Store } from "../store/store.js";
import { type AudioCache, audioCacheKey } from "./audio-cache.js";
import { StreamedFile, type StreamedPart, synthesizePart, wholeFile } from "./encoding.js";
import { evenParts, streamedParts } from "./parts.js";
import type { ProductionKeeper } from "./productions.js";
import { synthesisRequest, type TtsParams } from "./request.js";
import { synthesizeInOrder } from "./streamed.js";
import { discardTimed, storedTimings, storeTimings, subtitlesOf, synthesizeTimed, type TimedAudio } from "./timings.js";

export interface TtsServiceOptions {
  store: Store;
  /** The engine of each voice (speech/engines.ts). */
  engines: SpeechEngines;
  voices: VoiceCatalog;
  audio: AudioStore;
  log: FastifyBaseLogger;
  /** The operator lexicon, which wins over the front-end's own readings. */
  lexicon?: Lexicon;
  /** Finished audio of recent requests; without it every request synthesizes. */
  cache?: AudioCache;
  /** Where long texts are streamed from while produced; without it nothing is streamed. */
  inProgress?: AudioInProgress;
  /** Keeps the charges of streamed texts honest through failures and crashes; required to stream. */
  productions?: ProductionKeeper;
  /** Free space where audio and the database are written; without it, not checked. */
  storage?: { status(): StorageStatus };
  now?: () => number;
}

function insufficient(costMicro: number, balanceMicro: number): ServiceError<"INSUFFICIENT_BALANCE"> {
  return new ServiceError("INSUFFICIENT_BALANCE", "The balance is too low for this text; recharge first", {
    required_cents: centsUp(costMicro),
    available_cents: centsDown(balanceMicro),
  });
}

/** An engine failure that re-sending the same request may not meet again. */
const TRANSIENT_SYNTHESIS: ReadonlySet<SynthesisFailure> = new Set(["busy", "voice_unavailable", "failed"]);

/** A failure of this service's own storage: nothing was charged, and a retry may work. */
function storageFailed(message: string, cause?: unknown): ServiceError<"TTS_FAILED"> {
  return new ServiceError("TTS_FAILED", message, undefined, { transient: true, cause });
}

/** Texts longer than this (in characters) are streamed: answered once their first sentence is ready. */
export const STREAM_MIN_CHARS = 300;

/**
 * Texts from this long (in characters) that are spoken in one synthesis have
 * its encoding split over two threads when two are free.
 */
export const SPLIT_ENCODE_MIN_CHARS = 40;

type Charge = Omit<ChargeInput, "audioId" | "at" | "producedBy">;

/** What a request became: its answer, and the key of its audio (audio/ids.ts) for a caller that sends the audio itself. */
export interface Spoken {
  result: TtsResult;
  audioKey: string;
}

/**
 * Steps 9-11 of POST /tts: voice, early balance check, synthesis, storage and
 * the charge. Audio is stored before the charge; a refused charge deletes it.
 * A long text is the exception: charged once its first part is stored in
 * progress, and reversed should a later part fail (speakStreamed).
 */
export class TtsService {
  private readonly now: () => number;
  private readonly producing = new Set<Promise<void>>();

  constructor(private readonly options: TtsServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * `fingerprint` identifies the request (its key and envelope) for ever: a
   * request whose fingerprint was charged before is answered from that
   * charge, not run again.
   */
  async speak(owner: KeyOwner, params: TtsParams, fingerprint?: string): Promise<TtsResult> {
    return (await this.speakAudio(owner, params, fingerprint)).result;
  }

  /** As speak(), with the key of the audio, which is stored, or still being produced (AudioInProgress). */
  async speakAudio(owner: KeyOwner, params: TtsParams, fingerprint?: string): Promise<Spoken> {
    const { voices, audio, log, store } = this.options;
    // A request charged before is answered from its charge, however long after and whatever its timestamp.
    if (fingerprint !== undefined) {
      const earlier = await store.chargeOf(fingerprint).catch((error: unknown) => {
        throw storageFailed("The service's records are unavailable; nothing was charged. Try again shortly", error);
      });
      if (earlier) return this.answerOf(earlier, params.timings ? await this.storedTimingsOf(earlier) : undefined);
    }
    const voice = voices.get(params.voiceId);
    if (!voice) {
      throw new ServiceError("TTS_FAILED", "Unknown voice_id; GET /voices lists the voices", { voice_id: params.voiceId });
    }
    // The tier is chosen from the total recharge at the moment of the request.
    // Billing counts the text as submitted (override marks included), not what is spoken.
    const { rawChars } = params;
    const billable = billableChars(rawChars);
    const costMicro = costOf(billable, pricePerWanMicro(owner.account.totalRechargeMicro));
    // Only an early answer: the charge below decides.
    if (owner.account.balanceMicro < costMicro) throw insufficient(costMicro, owner.account.balanceMicro);
    // A full disk would fail halfway (after synthesis, or after a streamed text's charge): refuse up front.
    if (this.options.storage?.status().full) {
      throw storageFailed("The service's storage is full; nothing was charged. Try again later");
    }
    const charge: Charge = {
      accountId: owner.account.id,
      keyId: owner.key.id,
      costMicro,
      rawChars,
      billableChars: billable,
      ...(fingerprint === undefined ? {} : { fingerprint }),
    };
    const { inProgress, productions } = this.options;
    // Timings need the whole text made before the answer, so a text that asks for them is never streamed.
    if (rawChars > STREAM_MIN_CHARS && inProgress && productions && !params.timings) {
      return this.speakStreamed(charge, params, voice, inProgress, productions);
    }

    let file: Uint8Array;
    let timed: TimedAudio | undefined;
    try {
      if (params.timings) ({ file } = timed = await this.produceTimed(params, voice));
      else file = await this.produce(params, voice);
    } catch (error) {
      throw this.synthesisFailed(error);
    }

    const audioId = audioKey(newAudioId(), params.format);
    try {
      await audio.put(audioId, file);
      if (timed) await storeTimings(audio, audioId, timed.timings);
    } catch (error) {
      log.error({ err: error }, "audio could not be stored");
      if (timed) await discardTimed(audio, audioId).catch(() => undefined);
      throw storageFailed("The audio could not be stored; nothing was charged", error);
    }

    const { entry, first } = await this.charge(charge, audioId, undefined, () =>
      timed ? discardTimed(audio, audioId) : audio.delete(audioId),
    );
    // A charge made meanwhile by the same envelope elsewhere answers with its own files.
    const timings = timed && (first ? timed.timings : await this.storedTimingsOf(entry));
    return this.answerOf(entry, timings);
  }

  /** Waits for the streamed texts still being produced, so a shutdown does not cut them. */
  async drain(): Promise<void> {
    while (this.producing.size > 0) await Promise.allSettled([...this.producing]);
  }

  private synthesisFailed(error: unknown): ServiceError<"TTS_FAILED"> {
    if (error instanceof SynthesisError) {
      // The client gets the fixed message; the engine's own detail (never sent) goes to the log.
      if (error.reason !== "nothing_to_speak")
        this.options.log.warn({ err: error.cause ?? error, reason: error.reason }, "synthesis failed");
      return new ServiceError("TTS_FAILED", error.message, undefined, { transient: TRANSIENT_SYNTHESIS.has(error.reason), cause: error });
    }
    this.options.log.error({ err: error }, "speech engine failed");
    return new ServiceError("TTS_FAILED", "Speech synthesis failed; nothing was charged", undefined, { transient: true, cause: error });
  }

  /**
   * The charge decides. When it is refused or fails, `discard` removes the
   * audio; when the request was charged before (the same envelope, meanwhile,
   * in another process), that first charge is the answer and this audio goes.
   */
  private async charge(charge: Charge, audioId: string, producedBy: string | undefined, discard: () => Promise<void> | void) {
    const input: ChargeInput = { ...charge, audioId, at: this.now(), ...(producedBy === undefined ? {} : { producedBy }) };
    const result = await this.options.store.charge(input).catch(async (error: unknown) => {
      await discard();
      this.options.log.error({ err: error }, "charge failed");
      throw storageFailed("The charge could not be recorded; nothing was charged", error);
    });
    if (result.ok) return { entry: result.entry, first: true };
    await discard();
    // A concurrent request spent the balance meanwhile: no charge, no audio.
    if (result.reason === "balance") throw insufficient(charge.costMicro, result.balanceMicro);
    return { entry: result.entry, first: false };
  }

  /** The timings kept beside a charge's audio; undefined once they are gone with it. */
  private async storedTimingsOf(entry: LedgerEntry): Promise<TtsTimings | undefined> {
    if (entry.audioId === null) return undefined;
    return storedTimings(this.options.audio, entry.audioId).catch(() => undefined);
  }

  /**
   * The answer a charge stands for: its audio's URL and its billing, the same
   * every time it is asked; with `timings`, those and the subtitles beside the audio.
   */
  private async answerOf(entry: LedgerEntry, timings?: TtsTimings): Promise<Spoken> {
    if (entry.audioId === null || entry.rawChars === null || entry.billableChars === null) {
      throw new Error(`ledger entry ${entry.id} is not a charge for audio`);
    }
    const result: TtsResult = {
      audio_url: await this.options.audio.url(entry.audioId),
      ...(timings ? { timings, subtitles: await subtitlesOf(this.options.audio, entry.audioId) } : {}),
      billing: {
        raw_chars: entry.rawChars,
        billable_chars: entry.billableChars,
        cost_yuan: microToYuan(-entry.amountMicro),
        balance_after_yuan: microToYuan(entry.balanceAfterMicro),
      },
    };
    return { result, audioKey: entry.audioId };
  }

  /**
   * A long text: answered, and charged, as soon as its first sentence is
   * encoded; the rest is produced behind the answer while /audio streams it.
   * The charge is written with a production row (ProductionKeeper): should a
   * later part or the storage fail, or this process die, it is given back.
   */
  private async speakStreamed(
    charge: Charge,
    params: TtsParams,
    voice: Voice,
    inProgress: AudioInProgress,
    productions: ProductionKeeper,
  ): Promise<Spoken> {
    const { lexicon, log } = this.options;
    const engine = this.options.engines.for(voice.engine);
    const chunks = streamedParts(params.text, engine.threads ?? 1);
    const parts = params.ssml
      ? ssmlPartsInOrder({ engine, voice, params, document: params.ssml, lexicon, log }, params.format)
      : synthesizeInOrder((request) => synthesizePart(engine, params.format, request), voice, params, chunks, lexicon, log);
    const file = new StreamedFile(params.format);
    let next = 0;
    let firstBytes: Uint8Array | undefined;
    try {
      let first: StreamedPart | undefined;
      while (first === undefined && next < parts.length) first = await parts[next++];
      if (first !== undefined) firstBytes = await file.append(first);
    } catch (error) {
      throw this.synthesisFailed(error);
    }
    if (firstBytes === undefined) throw this.synthesisFailed(new SynthesisError("nothing_to_speak"));

    const audioId = audioKey(newAudioId(), params.format);
    const production = inProgress.start(audioId);
    production.append(firstBytes);
    const { entry, first: charged } = await this.charge(charge, audioId, productions.owner, () => inProgress.discard(audioId));
    if (!charged) return this.answerOf(entry);
    productions.begin();
    const finishing = this.finishStreamed(audioId, production, file, parts.slice(next), inProgress, productions);
    this.producing.add(finishing);
    void finishing.finally(() => this.producing.delete(finishing));
    return this.answerOf(entry);
  }

  private async finishStreamed(
    audioId: string,
    production: Production,
    file: StreamedFile,
    rest: ReadonlyArray<Promise<StreamedPart | undefined>>,
    inProgress: AudioInProgress,
    productions: ProductionKeeper,
  ): Promise<void> {
    const { audio, log } = this.options;
    try {
      for (const part of rest) {
        const done = await part;
        if (done) production.append(await file.append(done));
      }
      const last = file.end();
      if (last.length > 0) production.append(last);
      await audio.put(audioId, file.seal(production.bytes()));
    } catch (error) {
      log.error({ err: error, audio: shortAudioId(audioId) }, "a streamed text could not be finished; its charge is given back");
      // Said until the reversal is written; the keeper tells inProgress once it is (now, or on a retry).
      inProgress.fail(audioId, "reversal_pending");
      await productions.failed(audioId);
      return;
    }
    await productions.finished(audioId);
    inProgress.finish(audioId);
  }

  /**
   * The whole file of a text, from the cache when it was asked for before.
   * With threads free, a text of PARALLEL_MIN_CHARS or more is cut at sentence
   * ends into one part per free thread, synthesized at once and joined; a
   * shorter one has its encoding shared (encodeInHalves). With no thread free
   * it is one synthesis: cutting would only add the engine's fixed cost.
   */
  private async produce(params: TtsParams, voice: Voice): Promise<Uint8Array> {
    const { cache, lexicon } = this.options;
    const engine = this.options.engines.for(voice.engine);
    const key = cache && audioCacheKey(engine, voice, params);
    const cached = key === undefined ? undefined : cache?.get(key);
    if (cached) return cached;
    if (params.ssml) {
      const { file } = await ssmlTimed({ engine, voice, params, document: params.ssml, lexicon, log: this.options.log }, params.format);
      if (key !== undefined) cache?.set(key, file);
      return file;
    }
    const free = (engine.threads ?? 1) - (engine.inFlight?.() ?? 0);
    const inputs = evenParts(params.text, free)
      .map((chunk) => readForVoice(chunk, voice, lexicon))
      .filter((input) => {
        logUnread(input, this.options.log);
        return !isSilent(input);
      });
    if (inputs.length === 0) throw new SynthesisError("nothing_to_speak");
    const requests = inputs.map((input, i) => synthesisRequest(input, voice, params, i < inputs.length - 1));
    const [only] = requests;
    let file: Uint8Array;
    if (params.format !== "mp3") file = await wholeFile(engine, params.format, requests);
    else if (requests.length === 1 && only && free >= 2 && params.rawChars >= SPLIT_ENCODE_MIN_CHARS)
      file = await this.encodeInHalves(engine, only);
    else file = await this.synthesizeAll(engine, requests);
    if (key !== undefined) cache?.set(key, file);
    return file;
  }

  /** The whole file of a text with its sentence timings (tts/timings.ts), from the cache when it was asked for before. */
  private async produceTimed(params: TtsParams, voice: Voice): Promise<TimedAudio> {
    const { cache, lexicon, log } = this.options;
    const engine = this.options.engines.for(voice.engine);
    // Timed audio is made sentence by sentence, so its bytes differ from the same text's untimed audio.
    const key = cache && `${audioCacheKey(engine, voice, params)}:timed`;
    const cached = key === undefined ? undefined : cache?.getTimed(key);
    if (cached) return cached;
    const timed = params.ssml
      ? await ssmlTimed({ engine, voice, params, document: params.ssml, lexicon, log }, params.format)
      : await synthesizeTimed(engine, voice, params, lexicon, log);
    if (key !== undefined) cache?.set(key, timed.file, timed.timings);
    return timed;
  }

  private async synthesizeAll(engine: SpeechEngine, requests: readonly SynthesisRequest[]): Promise<Uint8Array> {
    const parts = await Promise.all(requests.map((request) => engine.synthesize(request)));
    return parts.length === 1 && parts[0] ? parts[0].mp3 : joinMp3(parts.map((part) => part.mp3));
  }

  /**
   * One synthesis whose encoding, about half of its time, is shared by two
   * threads: the samples are cut in the pause nearest their middle and the
   * halves encoded at once, then joined gaplessly (speech/mp3/gapless.ts).
   */
  private async encodeInHalves(engine: SpeechEngine, request: SynthesisRequest): Promise<Uint8Array> {
    if (!engine.synthesizePcm || !engine.encode) return (await engine.synthesize(request)).mp3;
    const { pcm, sampleRate } = await engine.synthesizePcm(request);
    const cut = pauseNear(pcm, pcm.length / 2, sampleRate);
    if (cut === undefined) return (await engine.encode(pcm, sampleRate, false)).mp3;
    const halves = await Promise.all([
      engine.encode(pcm.slice(0, cut), sampleRate, true),
      engine.encode(pcm.slice(cut), sampleRate, false),
    ]);
    return joinMp3(halves.map((half) => half.mp3));
  }
}
