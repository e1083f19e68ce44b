import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AudioDownloadError,
  AuthError,
  ERRORS,
  type ErrorCode,
  InsufficientBalanceError,
  MissingParameterError,
  RateLimitError,
  TextTooLongError,
  TtsFailedError,
  UnexpectedResponseError,
} from "@fangyan/client";
import { type I18n, isMessageKey } from "./i18n/i18n.js";
import { centsText } from "./money.js";

/**
 * An error of the client in plain words of the current language: what
 * happened and what to do, with the amounts or the wait that matter, and the
 * request id to quote when there is one. `now` is injectable for tests.
 */
export function explain(error: unknown, i18n: I18n, now: () => number = Date.now): string {
  const text = describe(error, i18n, now);
  const requestId = error instanceof APIError ? error.requestId : error instanceof UnexpectedResponseError ? error.requestId : undefined;
  return requestId ? `${text}${i18n.t("requestId", { id: requestId })}` : text;
}

function describe(error: unknown, i18n: I18n, now: () => number): string {
  const t = i18n.t.bind(i18n);
  // First the wordings that the error's details make more precise; then the table's wording for its code.
  if (error instanceof InsufficientBalanceError && error.requiredCents !== undefined && error.availableCents !== undefined) {
    return t("errInsufficient", { required: centsText(i18n, error.requiredCents), available: centsText(i18n, error.availableCents) });
  }
  if (error instanceof RateLimitError && error.retryAfterSeconds !== undefined) {
    const seconds = Math.max(1, Math.ceil(error.retryAfterSeconds));
    const time = new Date(now() + seconds * 1000).toLocaleTimeString(i18n.locale, { hour12: false });
    return t("errRateLimit", { seconds, time });
  }
  if (error instanceof AuthError && error.clockSkewMs !== undefined) {
    return t("errClock", { seconds: Math.round(Math.abs(error.clockSkewMs) / 1000) });
  }
  if (error instanceof MissingParameterError && error.ssml) {
    const { line, column, element, reason } = error.ssml;
    return t("errSsml", { line, column, element: element ? `<${element}>` : "", reason });
  }
  if (error instanceof MissingParameterError && error.invalid.length > 0) {
    return t("errInvalidParameter", { fields: error.invalid.map((field) => controlName(i18n, field)).join(", ") });
  }
  if (error instanceof TtsFailedError && error.voiceId) return t("errUnknownVoice", { voice: error.voiceId });
  if (error instanceof APIError) {
    const max = error instanceof TextTooLongError ? error.maxChars : "?";
    const chars = error instanceof TextTooLongError ? (error.chars ?? "?") : "?";
    return t(wordingOf(error.code), { message: error.message, chars, max });
  }
  if (error instanceof APITimeoutError) return t("errTimeout");
  if (error instanceof APIConnectionError) return t("errConnection");
  if (error instanceof UnexpectedResponseError) return t("errUnexpected");
  if (error instanceof AudioDownloadError) return t("errDownload");
  return t("errGeneric", { message: error instanceof Error ? error.message : String(error) });
}

/** The console's wording of a code, from the protocol's table (a test checks every key exists). */
export function wordingOf(code: ErrorCode) {
  const key = ERRORS[code].consoleKey;
  return isMessageKey(key) ? key : "errGeneric";
}

function controlName(i18n: I18n, field: string): string {
  if (field === "speed" || field === "pitch" || field === "volume") return i18n.t(field);
  return field;
}
