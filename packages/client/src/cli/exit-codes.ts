import {
  APIConnectionError,
  AuthError,
  DecryptionFailedError,
  InsufficientBalanceError,
  InvalidApiKeyError,
  MissingApiKeyError,
  MissingParameterError,
  RateLimitError,
  TextTooLongError,
  TtsFailedError,
} from "../core/errors.js";

/** `fy`'s exit codes: one per kind of failure a script may want to act on. */
export const EXIT = {
  ok: 0,
  /** Anything else: an unexpected answer, a file that could not be written, a bug. */
  other: 1,
  /** Wrong arguments or no text: nothing was sent. */
  usage: 2,
  /** No API key set, or the key (or the clock) was refused. */
  auth: 3,
  insufficientBalance: 4,
  rateLimit: 5,
  /** The service refused the request's content: a parameter, the length, the envelope. */
  badRequest: 6,
  ttsFailed: 7,
  /** The service could not be reached, or did not answer in time. */
  network: 8,
} as const;

/** Raised by the CLI itself for wrong arguments; nothing was sent. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** No API key is configured; nothing was sent. */
export class NoApiKeyError extends Error {
  override readonly name = "NoApiKeyError";
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof NoApiKeyError) return EXIT.auth;
  if (error instanceof MissingApiKeyError || error instanceof AuthError || error instanceof InvalidApiKeyError) return EXIT.auth;
  if (error instanceof InsufficientBalanceError) return EXIT.insufficientBalance;
  if (error instanceof RateLimitError) return EXIT.rateLimit;
  if (error instanceof MissingParameterError || error instanceof TextTooLongError || error instanceof DecryptionFailedError) {
    return EXIT.badRequest;
  }
  if (error instanceof TtsFailedError) return EXIT.ttsFailed;
  if (error instanceof APIConnectionError) return EXIT.network;
  return EXIT.other;
}
