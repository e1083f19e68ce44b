import { type ApiFailure, ERROR_STATUS, type ErrorCode, type ErrorDetailsByCode } from "@fangyan/protocol";

/**
 * An expected failure of an API request, carrying one of the spec's codes.
 * The HTTP status always comes from the protocol's one table.
 */
export class ApiError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    message: string,
    readonly details?: ErrorDetailsByCode[C],
  ) {
    super(message);
    this.name = "ApiError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toWrapper(): ApiFailure {
    const wrapper: ApiFailure = { success: false, error_code: this.code, message: this.message };
    if (this.details !== undefined) wrapper.details = this.details;
    return wrapper;
  }
}

/** One message per decryption failure, whatever the cause (no padding oracle). */
export const DECRYPTION_FAILED_MESSAGE = "The request body could not be decrypted with this API key";

export const decryptionFailed = () => new ApiError("DECRYPTION_FAILED", DECRYPTION_FAILED_MESSAGE);
