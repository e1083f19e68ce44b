import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AudioDownloadError,
  AuthError,
  DecryptionFailedError,
  InsufficientBalanceError,
  InvalidApiKeyError,
  MissingApiKeyError,
  MissingParameterError,
  RateLimitError,
  TextTooLongError,
  TtsFailedError,
  UnexpectedResponseError,
} from "@fangyan/client";
import type { I18n } from "./i18n/i18n.js";
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
  if (error instanceof InsufficientBalanceError) {
    if (error.requiredCents === undefined || error.availableCents === undefined) return t("errInsufficientUnknown");
    return t("errInsufficient", { required: centsText(i18n, error.requiredCents), available: centsText(i18n, error.availableCents) });
  }
  if (error instanceof RateLimitError) {
    if (error.retryAfterSeconds === undefined) return t("errRateLimitUnknown");
    const seconds = Math.max(1, Math.ceil(error.retryAfterSeconds));
    const time = new Date(now() + seconds * 1000).toLocaleTimeString(i18n.locale, { hour12: false });
    return t("errRateLimit", { seconds, time });
  }
  if (error instanceof InvalidApiKeyError) return t("errInvalidKey");
  if (error instanceof MissingApiKeyError) return t("errMissingKey");
  if (error instanceof AuthError) {
    return error.clockSkewMs === undefined ? t("errAuth") : t("errClock", { seconds: Math.round(Math.abs(error.clockSkewMs) / 1000) });
  }
  if (error instanceof DecryptionFailedError) return t("errDecryption");
  if (error instanceof MissingParameterError) {
    return error.invalid.length > 0
      ? t("errInvalidParameter", { fields: error.invalid.map((field) => controlName(i18n, field)).join(", ") })
      : t("errMissingParameter");
  }
  if (error instanceof TextTooLongError) return t("errTooLong", { chars: error.chars ?? "?", max: error.maxChars });
  if (error instanceof TtsFailedError) {
    return error.voiceId ? t("errUnknownVoice", { voice: error.voiceId }) : t("errTtsFailed", { message: error.message });
  }
  if (error instanceof APITimeoutError) return t("errTimeout");
  if (error instanceof APIConnectionError) return t("errConnection");
  if (error instanceof UnexpectedResponseError) return t("errUnexpected");
  if (error instanceof AudioDownloadError) return t("errDownload");
  return t("errGeneric", { message: error instanceof Error ? error.message : String(error) });
}

function controlName(i18n: I18n, field: string): string {
  if (field === "speed" || field === "pitch" || field === "volume") return i18n.t(field);
  return field;
}
