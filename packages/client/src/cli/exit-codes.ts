import { CLI_EXIT, cliExitCodeOf } from "@fangyan/protocol";
import { APIConnectionError, APIError } from "../core/errors.js";

/**
 * `fy`'s exit codes: one per kind of failure a script may want to act on. The
 * service's refusals (3-7) come from the protocol's table of error codes.
 */
export const EXIT = {
  ok: 0,
  /** Anything else: an unexpected answer, a file that could not be written, a bug. */
  other: 1,
  /** Wrong arguments or no text: nothing was sent. */
  usage: 2,
  ...CLI_EXIT,
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
  if (error instanceof APIError) return cliExitCodeOf(error.code);
  if (error instanceof APIConnectionError) return EXIT.network;
  return EXIT.other;
}
