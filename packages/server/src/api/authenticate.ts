import { deriveEnvelopeKeySync } from "@fangyan/protocol/node";
import type { FastifyReply, FastifyRequest } from "fastify";
import { RATE_WINDOW_MS, type RateLimitDecision, type RateLimiter } from "../ratelimit/limiter.js";
import { BackendUnavailableError } from "../redis/unavailable.js";
import { ApiError } from "./api-error.js";
import type { Callers } from "./callers.js";

export interface AuthOptions {
  callers: Callers;
  limiter: RateLimiter;
  rateLimitPerMinute: number;
  authFailuresPerMinute: number;
  /** Where the key is presented; default the X-API-Key header of /api/v1. */
  presented?: PresentedKey;
}

/** How a route family takes the API key: from which header, and how a missing one is worded. */
export interface PresentedKey {
  header: string;
  /** The key in the header's value, or undefined when the value is not of the expected form. */
  keyOf(value: string): string | undefined;
  missing: string;
  empty: string;
}

/** `/api/v1`: the interface's X-API-Key header. */
export const apiKeyHeader: PresentedKey = {
  header: "x-api-key",
  keyOf: (value) => value,
  missing: "The X-API-Key header is required",
  empty: "The X-API-Key header is empty",
};

function setRateHeaders(reply: FastifyReply, decision: RateLimitDecision): void {
  reply.header("RateLimit-Limit", decision.limit);
  reply.header("RateLimit-Remaining", decision.remaining);
  reply.header("RateLimit-Reset", decision.resetSeconds);
}

function rateLimited(reply: FastifyReply, decision: RateLimitDecision): ApiError<"RATE_LIMIT_EXCEEDED"> {
  reply.header("Retry-After", decision.resetSeconds);
  return new ApiError(
    "RATE_LIMIT_EXCEEDED",
    `Rate limit of ${decision.limit} requests a minute exceeded; retry in ${decision.resetSeconds} s`,
    {
      limit: decision.limit,
      window_seconds: RATE_WINDOW_MS / 1000,
      retry_after_seconds: decision.resetSeconds,
    },
  );
}

/**
 * Steps 1-4 of the error order: the key header, the key itself, and the rate
 * limit. Runs before the body is read, so nothing about the body can come first.
 */
export function authenticator(options: AuthOptions) {
  const presented = options.presented ?? apiKeyHeader;
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    request.caller = { envelopeKey: undefined, owner: undefined };
    const value = request.headers[presented.header];
    const header = value === undefined ? undefined : presented.keyOf(Array.isArray(value) ? value.join(", ") : value);
    const failure = await checkKey(request, header);
    if (failure) {
      // Failed authentication is limited per client address, so keys cannot be guessed at speed.
      const decision = await options.limiter.hit(`auth-fail:${request.ip}`, options.authFailuresPerMinute, RATE_WINDOW_MS);
      setRateHeaders(reply, decision);
      throw decision.allowed ? failure : rateLimited(reply, decision);
    }
    const owner = request.caller.owner;
    if (!owner) throw new Error("authenticated request without an owner");
    const limit = owner.account.rateLimitPerMinute ?? options.rateLimitPerMinute;
    const decision = await options.limiter.hit(`key:${owner.key.id}`, limit, RATE_WINDOW_MS);
    setRateHeaders(reply, decision);
    if (!decision.allowed) throw rateLimited(reply, decision);
  };

  async function checkKey(request: FastifyRequest, key: string | undefined): Promise<ApiError | undefined> {
    if (key === undefined) return new ApiError("MISSING_API_KEY", presented.missing);
    if (key.trim() === "") {
      request.caller.envelopeKey = deriveEnvelopeKeySync(key);
      return new ApiError("AUTH_ERROR", presented.empty);
    }
    const { envelopeKey, owner } = await options.callers.identify(key).catch((error: unknown) => {
      // The store failed: the answer (503, retry) is still sealed with the key the request presented.
      request.caller.envelopeKey = deriveEnvelopeKeySync(key);
      throw new BackendUnavailableError("The account store is unreachable", { cause: error });
    });
    request.caller.envelopeKey = envelopeKey;
    if (!owner) return new ApiError("INVALID_API_KEY", "The API key is not valid, or it or its account is disabled");
    request.caller.owner = owner;
    return undefined;
  }
}
