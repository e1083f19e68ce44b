import type { Lexicon } from "@fangyan/frontend";
import { billableChars, centsDown, centsUp, costMicro as costOf, microToYuan, pricePerWanMicro, type TtsResult } from "@fangyan/protocol";
import type { FastifyBaseLogger } from "fastify";
import { ApiError } from "../api/api-error.js";
import { newAudioId } from "../audio/disk.js";
import type { AudioStore } from "../audio/store.js";
import { isSilent, readForVoice, type SpeechInput } from "../reading/reader.js";
import { type SpeechEngine, SynthesisError } from "../speech/engine.js";
import type { VoiceCatalog } from "../speech/voices.js";
import type { KeyOwner, Store } from "../store/store.js";
import type { TtsParams } from "./request.js";

export interface TtsServiceOptions {
  store: Store;
  engine: SpeechEngine;
  voices: VoiceCatalog;
  audio: AudioStore;
  log: FastifyBaseLogger;
  /** The operator lexicon, which wins over the front-end's own readings. */
  lexicon?: Lexicon;
  now?: () => number;
}

function insufficient(costMicro: number, balanceMicro: number): ApiError<"INSUFFICIENT_BALANCE"> {
  return new ApiError("INSUFFICIENT_BALANCE", "The balance is too low for this text; recharge first", {
    required_cents: centsUp(costMicro),
    available_cents: centsDown(balanceMicro),
  });
}

/**
 * Steps 9-11 of POST /tts: voice, early balance check, synthesis, storage and
 * the charge. Audio is stored before the charge; a refused charge deletes it.
 */
export class TtsService {
  private readonly now: () => number;

  constructor(private readonly options: TtsServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  async speak(owner: KeyOwner, params: TtsParams): Promise<TtsResult> {
    const { store, engine, voices, audio, log } = this.options;
    const voice = voices.get(params.voiceId);
    if (!voice) {
      throw new ApiError("TTS_FAILED", "Unknown voice_id; GET /voices lists the voices", { voice_id: params.voiceId });
    }
    // The tier is chosen from the total recharge at the moment of the request.
    // Billing counts the text as submitted (override marks included), not what is spoken.
    const { rawChars } = params;
    const billable = billableChars(rawChars);
    const costMicro = costOf(billable, pricePerWanMicro(owner.account.totalRechargeMicro));
    // Only an early answer: the charge below decides.
    if (owner.account.balanceMicro < costMicro) throw insufficient(costMicro, owner.account.balanceMicro);

    let mp3: Uint8Array;
    try {
      const input: SpeechInput = readForVoice(params.text, voice, this.options.lexicon);
      if (isSilent(input)) throw new SynthesisError("nothing_to_speak");
      ({ mp3 } = await engine.synthesize({
        text: input.reading.engine_input,
        markup: input.markup,
        voice: voice.engine,
        speed: params.speed,
        pitch: params.pitch,
        volume: params.volume,
      }));
    } catch (error) {
      if (error instanceof SynthesisError) throw new ApiError("TTS_FAILED", error.message);
      log.error({ err: error }, "speech engine failed");
      throw new ApiError("TTS_FAILED", "Speech synthesis failed; nothing was charged");
    }

    const audioId = newAudioId();
    try {
      await audio.put(audioId, mp3);
    } catch (error) {
      log.error({ err: error }, "audio could not be stored");
      throw new ApiError("TTS_FAILED", "The audio could not be stored; nothing was charged");
    }

    const charge = await store
      .charge({ accountId: owner.account.id, keyId: owner.key.id, costMicro, rawChars, billableChars: billable, audioId, at: this.now() })
      .catch(async (error: unknown) => {
        await audio.delete(audioId);
        log.error({ err: error }, "charge failed");
        throw new ApiError("TTS_FAILED", "The charge could not be recorded; nothing was charged");
      });
    if (!charge.ok) {
      // A concurrent request spent the balance meanwhile: no charge, no audio.
      await audio.delete(audioId);
      throw insufficient(costMicro, charge.balanceMicro);
    }
    return {
      audio_url: await audio.url(audioId),
      billing: {
        raw_chars: rawChars,
        billable_chars: billable,
        cost_yuan: microToYuan(costMicro),
        balance_after_yuan: microToYuan(charge.entry.balanceAfterMicro),
      },
    };
  }
}
