import {
  type AccountResult,
  MAX_TEXT_CHARS,
  microToYuan,
  pricePerWanMicro,
  REQUEST_MAX_AGE_MS,
  REQUEST_MAX_FUTURE_MS,
} from "@fangyan/protocol";
import { openEnvelopeSync } from "@fangyan/protocol/node";
import type { FastifyError, FastifyInstance } from "fastify";
import { ServiceError } from "../errors.js";
import type { RateLimiter } from "../ratelimit/limiter.js";
import { BackendUnavailableError } from "../redis/unavailable.js";
import { type ReplayCache, Unremembered } from "../replay/cache.js";
import type { VoiceCatalog } from "../speech/voices.js";
import type { Account } from "../store/store.js";
import { parseTtsRequest } from "../tts/request.js";
import type { TtsService } from "../tts/service.js";
import { encodeAnswer, sendAnswer } from "./answer.js";
import { ApiError, decryptionFailed, statusOf } from "./api-error.js";
import { authenticator } from "./authenticate.js";
import { type Caller, ownerOf } from "./caller.js";
import type { Callers } from "./callers.js";
import { requestFingerprint } from "./fingerprint.js";

/**
 * How long the replay memory keeps an answer, from when it was given: any
 * replay of the envelope must carry a timestamp inside the validity window,
 * so within this long of the first copy arriving it is answered from memory;
 * a charged answer is found in the ledger for ever after (TtsService).
 */
const REPLAY_MEMORY_MS = REQUEST_MAX_AGE_MS + REQUEST_MAX_FUTURE_MS + 60_000;

export interface ApiRoutesOptions {
  callers: Callers;
  limiter: RateLimiter;
  replay: ReplayCache;
  tts: TtsService;
  voices: VoiceCatalog;
  rateLimitPerMinute: number;
  authFailuresPerMinute: number;
  bodyLimitBytes: number;
  now?: () => number;
}

/** `/api/v1`: the three endpoints of the interface, every body an envelope. */
export async function apiRoutes(app: FastifyInstance, options: ApiRoutesOptions): Promise<void> {
  const now = options.now ?? Date.now;

  // The body is read as text and parsed here, not by Fastify, so that a bad
  // body can never answer before the key checks (error order steps 1-4).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
  app.addHook("onRequest", authenticator(options));

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const caller = request.caller as Caller | undefined;
    const expected = toExpected(error, options.bodyLimitBytes);
    if (expected) return sendAnswer(reply, encodeAnswer(caller, statusOf(expected), expected.toWrapper()));
    // Faults of the service itself: no spec code fits, so TTS_FAILED with a 5xx status that
    // tells clients to retry. A shared backend that is down (Redis) is 503; anything else 500.
    if (error instanceof BackendUnavailableError) {
      request.log.warn({ err: error }, "backend unavailable");
      reply.header("Retry-After", 5);
      const failure = new ApiError("TTS_FAILED", "The service is temporarily unavailable; retry in a few seconds");
      return sendAnswer(reply, encodeAnswer(caller, 503, failure.toWrapper()));
    }
    request.log.error({ err: error }, "unexpected error");
    const failure = new ApiError("TTS_FAILED", "Internal error; nothing was charged. Try again");
    return sendAnswer(reply, encodeAnswer(caller, 500, failure.toWrapper()));
  });

  app.get("/voices", async (request, reply) => {
    return sendAnswer(reply, encodeAnswer(request.caller, 200, { success: true, data: { voices: options.voices.grouped() } }));
  });

  app.get("/account", async (request, reply) => {
    const data = accountResult(ownerOf(request).account);
    return sendAnswer(reply, encodeAnswer(request.caller, 200, { success: true, data }));
  });

  app.post("/tts", async (request, reply) => {
    const caller = request.caller;
    const keyOwner = ownerOf(request);
    const envelopeKey = caller.envelopeKey;
    if (!envelopeKey) throw new Error("authenticated caller without an envelope key");

    // Step 5: every failure to read the envelope is the same answer.
    let envelope: unknown;
    try {
      envelope = JSON.parse(typeof request.body === "string" ? request.body : "");
    } catch {
      throw decryptionFailed();
    }
    let plaintext: Record<string, unknown>;
    try {
      plaintext = openEnvelopeSync(envelopeKey, envelope);
    } catch {
      throw decryptionFailed();
    }
    const { timestamp, iv, encryptedData } = envelope as { timestamp: number; iv: string; encryptedData: string };

    // Step 6: the validity window.
    const serverTime = now();
    if (timestamp < serverTime - REQUEST_MAX_AGE_MS || timestamp > serverTime + REQUEST_MAX_FUTURE_MS) {
      throw new ApiError("AUTH_ERROR", "The request timestamp is outside the 5-minute validity window; check the clock", {
        server_time_ms: serverTime,
        max_age_ms: REQUEST_MAX_AGE_MS,
      });
    }

    // An accepted envelope runs once: a replay, whatever its timestamp, gets the first answer.
    const fingerprint = requestFingerprint(keyOwner.key.id, iv, encryptedData);
    const answer = await options.replay
      .once(fingerprint, serverTime + REPLAY_MEMORY_MS, async () => {
        try {
          const data = await options.tts.speak(keyOwner, parseTtsRequest(plaintext), fingerprint);
          return encodeAnswer(caller, 200, { success: true, data });
        } catch (error) {
          if (!(error instanceof ServiceError)) throw error;
          const failure = encodeAnswer(caller, statusOf(error), error.toWrapper());
          // Busy, or storage or an engine unavailable: re-sending the envelope runs it again.
          if (error.transient) throw new Unremembered(failure);
          return failure;
        }
      })
      .catch((error: unknown) => {
        if (error instanceof Unremembered) return error.answer;
        throw error;
      });
    return sendAnswer(reply, answer);
  });
}

/** What GET /account answers for an account: its figures in yuan and its current price. */
export function accountResult(
  account: Pick<Account, "name" | "balanceMicro" | "totalRechargeMicro" | "totalConsumedMicro">,
): AccountResult {
  return {
    name: account.name,
    balance_yuan: microToYuan(account.balanceMicro),
    total_recharge_yuan: microToYuan(account.totalRechargeMicro),
    total_consumed_yuan: microToYuan(account.totalConsumedMicro),
    price_per_wan_yuan: microToYuan(pricePerWanMicro(account.totalRechargeMicro)),
  };
}

/** Expected failures, and Fastify's own request errors mapped onto the spec's codes; undefined for faults. */
function toExpected(error: FastifyError, bodyLimitBytes: number): ServiceError | undefined {
  if (error instanceof ServiceError) return error;
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
    return new ApiError(
      "TEXT_TOO_LONG",
      `The request body is over ${bodyLimitBytes} bytes, more than any ${MAX_TEXT_CHARS}-character text needs`,
      {
        max_chars: MAX_TEXT_CHARS,
      },
    );
  }
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) return decryptionFailed();
  return undefined;
}
