import type { ErrorCode, ErrorDetailsByCode, SsmlProblem } from "@fangyan/protocol";

/** Every error this package throws is a FangyanError, so one `instanceof` catches them all. */
export class FangyanError extends Error {
  override readonly name: string = "FangyanError";
}

export interface APIErrorInit<C extends ErrorCode> {
  code: C;
  status: number;
  details?: ErrorDetailsByCode[C] | undefined;
  requestId?: string | undefined;
  headers?: Headers | undefined;
}

/**
 * The service answered with one of the error codes of the protocol. Catch a
 * subclass (InsufficientBalanceError, RateLimitError, ...) for one condition,
 * or this class for all of them; `code` says which it was.
 */
export class APIError<C extends ErrorCode = ErrorCode> extends FangyanError {
  override readonly name: string = "APIError";
  readonly code: C;
  /** The HTTP status: 200 for TTS_FAILED, as the protocol has it. */
  readonly status: number;
  /** `details` exactly as the service sent it (snake_case, amounts in cents). */
  readonly details: ErrorDetailsByCode[C] | undefined;
  /** `X-Request-Id` of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;

  constructor(message: string, init: APIErrorInit<C>) {
    super(message);
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.requestId = init.requestId;
    this.headers = init.headers;
  }
}

function numberIn(details: unknown, field: string): number | undefined {
  if (typeof details !== "object" || details === null) return undefined;
  const value = (details as Record<string, unknown>)[field];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function stringsIn(details: unknown, field: string): string[] {
  if (typeof details !== "object" || details === null) return [];
  const value = (details as Record<string, unknown>)[field];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function ssmlIn(details: unknown): SsmlProblem | undefined {
  if (typeof details !== "object" || details === null) return undefined;
  const value = (details as Record<string, unknown>).ssml;
  if (typeof value !== "object" || value === null) return undefined;
  const { line, column, element, reason } = value as Record<string, unknown>;
  if (typeof line !== "number" || typeof column !== "number" || typeof reason !== "string") return undefined;
  return { line, column, reason, ...(typeof element === "string" ? { element } : {}) };
}

/** No X-API-Key header reached the service (a proxy may have dropped it). */
export class MissingApiKeyError extends APIError<"MISSING_API_KEY"> {
  override readonly name = "MissingApiKeyError";
}

/**
 * The key header was empty, or the request's timestamp was outside the
 * 5-minute window: the computer's clock is off. `clockSkewMs` then says by
 * how much (positive: this clock is ahead of the server's).
 */
export class AuthError extends APIError<"AUTH_ERROR"> {
  override readonly name = "AuthError";
  readonly serverTimeMs: number | undefined;
  readonly clockSkewMs: number | undefined;

  constructor(message: string, init: APIErrorInit<"AUTH_ERROR">, sentTimestamp?: number) {
    super(message, init);
    this.serverTimeMs = numberIn(init.details, "server_time_ms");
    this.clockSkewMs = this.serverTimeMs !== undefined && sentTimestamp !== undefined ? sentTimestamp - this.serverTimeMs : undefined;
  }
}

/** The key is unknown or disabled, or its account is disabled. */
export class InvalidApiKeyError extends APIError<"INVALID_API_KEY"> {
  override readonly name = "InvalidApiKeyError";
}

/** The service could not open the request envelope (a proxy rewrote the body, or a bug). */
export class DecryptionFailedError extends APIError<"DECRYPTION_FAILED"> {
  override readonly name = "DecryptionFailedError";
}

/** `text` or `voiceId` was missing or empty (`missing`), or a voice control was out of range (`invalid`). */
export class MissingParameterError extends APIError<"MISSING_PARAMETER"> {
  override readonly name = "MissingParameterError";
  readonly missing: string[];
  readonly invalid: string[];
  /** Where an SSML text was refused (line and column 1-based), when `invalid` holds "text" for that. */
  readonly ssml: SsmlProblem | undefined;

  constructor(message: string, init: APIErrorInit<"MISSING_PARAMETER">) {
    super(message, init);
    this.missing = stringsIn(init.details, "missing");
    this.invalid = stringsIn(init.details, "invalid");
    this.ssml = ssmlIn(init.details);
  }
}

/** The text has more than 5000 characters (code points). `chars` is absent when the body was too large to count. */
export class TextTooLongError extends APIError<"TEXT_TOO_LONG"> {
  override readonly name = "TextTooLongError";
  readonly maxChars: number;
  readonly chars: number | undefined;

  constructor(message: string, init: APIErrorInit<"TEXT_TOO_LONG">) {
    super(message, init);
    this.maxChars = numberIn(init.details, "max_chars") ?? 5000;
    this.chars = numberIn(init.details, "chars");
  }
}

/** The balance cannot pay for the text. Cost rounded up and balance rounded down to whole cents. */
export class InsufficientBalanceError extends APIError<"INSUFFICIENT_BALANCE"> {
  override readonly name = "InsufficientBalanceError";
  readonly requiredCents: number | undefined;
  readonly availableCents: number | undefined;

  constructor(message: string, init: APIErrorInit<"INSUFFICIENT_BALANCE">) {
    super(message, init);
    this.requiredCents = numberIn(init.details, "required_cents");
    this.availableCents = numberIn(init.details, "available_cents");
  }
}

/** Too many requests in the last minute. Retried automatically unless retries are used up. */
export class RateLimitError extends APIError<"RATE_LIMIT_EXCEEDED"> {
  override readonly name = "RateLimitError";
  /** From `Retry-After`, else from `details`. */
  readonly retryAfterSeconds: number | undefined;
  readonly limit: number | undefined;

  constructor(message: string, init: APIErrorInit<"RATE_LIMIT_EXCEEDED">) {
    super(message, init);
    this.retryAfterSeconds = parseRetryAfterSeconds(init.headers?.get("retry-after")) ?? numberIn(init.details, "retry_after_seconds");
    this.limit = numberIn(init.details, "limit");
  }
}

/** Synthesis failed, or the voice is unknown (`voiceId` set then). Nothing was charged. */
export class TtsFailedError extends APIError<"TTS_FAILED"> {
  override readonly name = "TtsFailedError";
  readonly voiceId: string | undefined;

  constructor(message: string, init: APIErrorInit<"TTS_FAILED">) {
    super(message, init);
    const details = init.details;
    this.voiceId = typeof details === "object" && details !== null && typeof details.voice_id === "string" ? details.voice_id : undefined;
  }
}

/**
 * Something answered that does not speak the Fangyan protocol: a proxy's
 * HTML error page, a wrong base URL, or an answer this key cannot decrypt.
 */
export class UnexpectedResponseError extends FangyanError {
  override readonly name = "UnexpectedResponseError";
  constructor(
    message: string,
    readonly status: number,
    readonly requestId: string | undefined,
  ) {
    super(message);
  }
}

/** The service could not be reached, or the connection broke before an answer came. */
export class APIConnectionError extends FangyanError {
  override readonly name: string = "APIConnectionError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No answer within `timeoutMs`. */
export class APITimeoutError extends APIConnectionError {
  override readonly name = "APITimeoutError";
}

/** The caller's AbortSignal fired. */
export class APIUserAbortError extends FangyanError {
  override readonly name = "APIUserAbortError";
  constructor() {
    super("The request was aborted");
  }
}

/** The audio URL did not give the file (404: it expired after the service's retention period). */
export class AudioDownloadError extends FangyanError {
  override readonly name = "AudioDownloadError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Seconds from a `Retry-After` header: a number of seconds or an HTTP date. */
export function parseRetryAfterSeconds(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === "") return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

type ErrorClass = new (message: string, init: APIErrorInit<ErrorCode>) => APIError;

const classes: Record<ErrorCode, ErrorClass> = {
  AUTH_ERROR: AuthError as ErrorClass,
  MISSING_API_KEY: MissingApiKeyError as ErrorClass,
  INVALID_API_KEY: InvalidApiKeyError as ErrorClass,
  DECRYPTION_FAILED: DecryptionFailedError as ErrorClass,
  MISSING_PARAMETER: MissingParameterError as ErrorClass,
  TEXT_TOO_LONG: TextTooLongError as ErrorClass,
  INSUFFICIENT_BALANCE: InsufficientBalanceError as ErrorClass,
  RATE_LIMIT_EXCEEDED: RateLimitError as ErrorClass,
  TTS_FAILED: TtsFailedError as ErrorClass,
};

/** The subclass of APIError for a code from the wire. */
export function apiErrorFor(
  code: ErrorCode,
  message: string,
  init: Omit<APIErrorInit<ErrorCode>, "code">,
  sentTimestamp?: number,
): APIError {
  if (code === "AUTH_ERROR")
    return new AuthError(message, { ...init, code, details: init.details as ErrorDetailsByCode["AUTH_ERROR"] }, sentTimestamp);
  return new classes[code](message, { ...init, code });
}
