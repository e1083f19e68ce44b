import { REQUEST_MAX_AGE_MS } from "@fangyan/protocol";

/**
 * A sealed POST /tts is re-sent only while the service will still take it as
 * the same request (5 minutes from its timestamp), with 30 s to spare for
 * clock skew and the trip: inside that window a re-sent envelope is answered
 * from the first run and charged once. A new envelope would be a new charge,
 * so past it the POST is not retried at all.
 */
export const RESEND_WINDOW_MS = REQUEST_MAX_AGE_MS - 30_000;

/** Longest `Retry-After` the client waits for by itself; a longer one is the caller's decision. */
export const MAX_RETRY_AFTER_MS = 60_000;

const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

export function canResend(envelopeTimestamp: number, resendAt: number): boolean {
  return resendAt - envelopeTimestamp < RESEND_WINDOW_MS;
}

/** Exponential backoff with jitter: about 0.5 s, 1 s, 2 s, ... at most 8 s. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const delay = Math.min(INITIAL_DELAY_MS * 2 ** retry, MAX_DELAY_MS);
  // Jitter keeps many clients that failed together from retrying together.
  return Math.round(delay * (1 - random() * 0.25));
}

/**
 * How long to wait before retry number `retry` (0 for the first): the
 * server's Retry-After when it sent one, else the backoff. Undefined when
 * the server asks for a longer wait than the client takes on by itself.
 */
export function retryDelayMs(retry: number, retryAfterSeconds: number | undefined, random?: () => number): number | undefined {
  if (retryAfterSeconds === undefined) return backoffMs(retry, random);
  const ms = retryAfterSeconds * 1000;
  return ms <= MAX_RETRY_AFTER_MS ? ms : undefined;
}

/** Network failures, 429 and 5xx are worth another try; every other answer is final. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
