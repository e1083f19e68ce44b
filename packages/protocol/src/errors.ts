/**
 * The closed catalog of error codes from the interface (section 7) and the
 * HTTP status each one is answered with. Nothing else may appear on the wire.
 */
export const ERROR_STATUS = {
  AUTH_ERROR: 401,
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  DECRYPTION_FAILED: 400,
  MISSING_PARAMETER: 400,
  TEXT_TOO_LONG: 400,
  INSUFFICIENT_BALANCE: 402,
  RATE_LIMIT_EXCEEDED: 429,
  TTS_FAILED: 200,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_STATUS, value);
}

/** `details` of each error code, as decided in decisions.md. */
export interface ErrorDetailsByCode {
  AUTH_ERROR: { server_time_ms: number; max_age_ms: number } | undefined;
  MISSING_API_KEY: undefined;
  INVALID_API_KEY: undefined;
  DECRYPTION_FAILED: undefined;
  MISSING_PARAMETER: { missing?: string[]; invalid?: string[] };
  /** `chars` is absent when the body was too large to read at all. */
  TEXT_TOO_LONG: { max_chars: number; chars?: number };
  INSUFFICIENT_BALANCE: { required_cents: number; available_cents: number };
  RATE_LIMIT_EXCEEDED: { limit: number; window_seconds: number; retry_after_seconds: number };
  TTS_FAILED: { voice_id: string } | undefined;
}
