import { ERROR_STATUS, type ErrorCode } from "@fangyan/protocol";
import { ServiceError } from "../errors.js";

/**
 * A failure of the API layer itself (the key, the envelope, the rate limit),
 * or a service's failure on its way out. The HTTP status always comes from
 * the protocol's one table.
 */
export class ApiError<C extends ErrorCode = ErrorCode> extends ServiceError<C> {
  override readonly name = "ApiError";

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The HTTP status of any expected failure: the protocol's table decides. */
export function statusOf(error: ServiceError): number {
  return ERROR_STATUS[error.code];
}

/** One message per decryption failure, whatever the cause (no padding oracle). */
export const DECRYPTION_FAILED_MESSAGE = "The request body could not be decrypted with this API key";

export const decryptionFailed = () => new ApiError("DECRYPTION_FAILED", DECRYPTION_FAILED_MESSAGE);
