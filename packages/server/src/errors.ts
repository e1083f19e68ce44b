import type { ApiFailure, ErrorCode, ErrorDetailsByCode } from "@fangyan/protocol";

/**
 * An expected failure of a service (a request's parameters, its voice, the
 * balance, synthesis, storage, the charge), as one of the spec's error codes.
 * Services raise it; the HTTP layer alone turns it into an answer and a
 * status. `transient` failures (busy, an engine or storage unavailable; never
 * charged) are worth retrying as they are, so the replay memory forgets them.
 */
export class ServiceError<C extends ErrorCode = ErrorCode> extends Error {
  readonly transient: boolean;

  constructor(
    readonly code: C,
    message: string,
    readonly details?: ErrorDetailsByCode[C],
    options: { transient?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ServiceError";
    this.transient = options.transient ?? false;
  }

  toWrapper(): ApiFailure {
    const wrapper: ApiFailure = { success: false, error_code: this.code, message: this.message };
    if (this.details !== undefined) wrapper.details = this.details;
    return wrapper;
  }
}
