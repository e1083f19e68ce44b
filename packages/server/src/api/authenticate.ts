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
}

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
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    request.caller = { envelopeKey: undefined, owner: undefined };
    const header = request.headers["x-api-key"];
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

  async function checkKey(request: FastifyRequest, header: string | string[] | undefined): Promise<ApiError | undefined> {
    if (header === undefined) return new ApiError("MISSING_API_KEY", "The X-API-Key header is required");
    const presented = Array.isArray(header) ? header.join(", ") : header;
    if (presented.trim() === "") {
      request.caller.envelopeKey = deriveEnvelopeKeySync(presented);
      return new ApiError("AUTH_ERROR", "The X-API-Key header is empty");
    }
    const { envelopeKey, owner } = await options.callers.identify(presented).catch((error: unknown) => {
      // The store failed: the answer (503, retry) is still sealed with the key the request presented.
      request.caller.envelopeKey = deriveEnvelopeKeySync(presented);
      throw new BackendUnavailableError("The account store is unreachable", { cause: error });
    });
    request.caller.envelopeKey = envelopeKey;
    if (!owner) return new ApiError("INVALID_API_KEY", "The API key is not valid, or it or its account is disabled");
    request.caller.owner = owner;
    return undefined;
  }
}
