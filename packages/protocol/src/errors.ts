/**
 * The closed catalog of error codes from the interface (section 7): one table
 * that says, for each code, what every part of Fangyan does with it. The
 * server answers with `status`; the SDK raises `sdkClass`; `fy` exits with
 * `exit`; the web console words it by its message `consoleKey`; the
 * OpenAI-compatible endpoint answers with `openai`. Nothing else may appear on
 * the wire, and a test fails if a consumer or docs/protocol.md leaves a code out.
 */

/** `fy`'s exit codes for the service's refusals; the CLI adds its own for usage, network and other failures. */
export const CLI_EXIT = {
  /** No API key set, or the key (or the clock) was refused. */
  auth: 3,
  insufficientBalance: 4,
  rateLimit: 5,
  /** The service refused the request's content: a parameter, the length, the envelope. */
  badRequest: 6,
  ttsFailed: 7,
} as const;

export type CliExit = keyof typeof CLI_EXIT;

/** An error as OpenAI's API answers it: `{error: {message, type, param, code}}` with this HTTP status. */
export interface OpenAiError {
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
}

export interface ErrorSpec {
  /** HTTP status of the `/api/v1` answer. */
  readonly status: number;
  /** The client SDK's error class for the code (exported by `@fangyan/client`). */
  readonly sdkClass: string;
  readonly exit: CliExit;
  /** The console's message for the code when its details add nothing (`packages/console/src/i18n`). */
  readonly consoleKey: string;
  /** The answer of the OpenAI-compatible `/v1/audio/speech`. */
  readonly openai: OpenAiError;
  /** Conditions within the code that `/v1/audio/speech` answers differently from `openai`. */
  readonly openaiWhen?: {
    readonly unknownVoice: OpenAiError;
    readonly busy: OpenAiError;
    readonly unavailable: OpenAiError;
    readonly nothingToSpeak: OpenAiError;
  };
}

const badKey: OpenAiError = { status: 401, type: "invalid_request_error", code: "invalid_api_key" };
const badInput: OpenAiError = { status: 400, type: "invalid_request_error", code: null };

export const ERRORS = {
  AUTH_ERROR: { status: 401, sdkClass: "AuthError", exit: "auth", consoleKey: "errAuth", openai: badKey },
  MISSING_API_KEY: { status: 401, sdkClass: "MissingApiKeyError", exit: "auth", consoleKey: "errMissingKey", openai: badKey },
  INVALID_API_KEY: { status: 401, sdkClass: "InvalidApiKeyError", exit: "auth", consoleKey: "errInvalidKey", openai: badKey },
  DECRYPTION_FAILED: { status: 400, sdkClass: "DecryptionFailedError", exit: "badRequest", consoleKey: "errDecryption", openai: badInput },
  MISSING_PARAMETER: {
    status: 400,
    sdkClass: "MissingParameterError",
    exit: "badRequest",
    consoleKey: "errMissingParameter",
    openai: badInput,
  },
  TEXT_TOO_LONG: {
    status: 400,
    sdkClass: "TextTooLongError",
    exit: "badRequest",
    consoleKey: "errTooLong",
    openai: { status: 400, type: "invalid_request_error", code: "string_above_max_length" },
  },
  INSUFFICIENT_BALANCE: {
    status: 402,
    sdkClass: "InsufficientBalanceError",
    exit: "insufficientBalance",
    consoleKey: "errInsufficientUnknown",
    openai: { status: 402, type: "insufficient_quota", code: "insufficient_quota" },
  },
  RATE_LIMIT_EXCEEDED: {
    status: 429,
    sdkClass: "RateLimitError",
    exit: "rateLimit",
    consoleKey: "errRateLimitUnknown",
    openai: { status: 429, type: "requests", code: "rate_limit_exceeded" },
  },
  // 200 on /api/v1 as the interface says (success false); /v1/audio/speech uses HTTP statuses.
  TTS_FAILED: {
    status: 200,
    sdkClass: "TtsFailedError",
    exit: "ttsFailed",
    consoleKey: "errTtsFailed",
    openai: { status: 500, type: "server_error", code: null },
    openaiWhen: {
      unknownVoice: { status: 404, type: "invalid_request_error", code: "voice_not_found" },
      busy: { status: 503, type: "server_error", code: "engine_overloaded" },
      // Storage full or unreachable, an engine's server down: nothing charged, worth retrying.
      unavailable: { status: 503, type: "server_error", code: "service_unavailable" },
      // A text of punctuation or symbols alone: the input's fault, not the service's.
      nothingToSpeak: { status: 400, type: "invalid_request_error", code: "nothing_to_speak" },
    },
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The HTTP status of each code on `/api/v1`, read from the table. */
export const ERROR_STATUS = Object.fromEntries(ERROR_CODES.map((code) => [code, ERRORS[code].status])) as {
  readonly [C in ErrorCode]: (typeof ERRORS)[C]["status"];
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERRORS, value);
}

/** `fy`'s exit code for a code the service answered with. */
export function cliExitCodeOf(code: ErrorCode): number {
  return CLI_EXIT[ERRORS[code].exit];
}

/** Where and why an SSML text was refused (POST /tts `details.ssml`). */
export interface SsmlProblem {
  line: number;
  column: number;
  element?: string;
  reason: string;
}

/** `details` of each error code, as decided in decisions.md. */
export interface ErrorDetailsByCode {
  AUTH_ERROR: { server_time_ms: number; max_age_ms: number } | undefined;
  MISSING_API_KEY: undefined;
  INVALID_API_KEY: undefined;
  DECRYPTION_FAILED: undefined;
  /** `ssml`: where an SSML text went wrong (line and column 1-based, in characters), with `invalid: ["text"]`. */
  MISSING_PARAMETER: { missing?: string[]; invalid?: string[]; ssml?: SsmlProblem };
  /** `chars` is absent when the body was too large to read at all. */
  TEXT_TOO_LONG: { max_chars: number; chars?: number };
  INSUFFICIENT_BALANCE: { required_cents: number; available_cents: number };
  RATE_LIMIT_EXCEEDED: { limit: number; window_seconds: number; retry_after_seconds: number };
  TTS_FAILED: { voice_id: string } | undefined;
}
