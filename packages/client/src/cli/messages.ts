import {
  APIConnectionError,
  APIError,
  APITimeoutError,
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
import { count, duration, yuanFromCents } from "./format.js";

function clockMessage(error: AuthError): string {
  const skew = error.clockSkewMs;
  if (skew === undefined) return "The service refused the API key as empty; check FANGYAN_API_KEY";
  const direction = skew > 0 ? "ahead of" : "behind";
  return `This computer's clock is ${duration(Math.abs(skew))} ${direction} the service's, and requests are valid for 5 minutes; set the clock right (turn on network time) and try again`;
}

/** A service message as part of a sentence: "The text ... ." -> "the text ..." */
function clause(message: string, capital: boolean): string {
  const trimmed = message.trim().replace(/\.$/, "");
  const first = trimmed.charAt(0);
  return (capital ? first.toUpperCase() : first.toLowerCase()) + trimmed.slice(1);
}

function parameterMessage(error: MissingParameterError): string {
  // The service's message names the range of a voice control that was out of it.
  if (error.invalid.length > 0) return clause(error.message, true);
  const missing = error.missing.map((name) => (name === "voice_id" ? "a voice (-v)" : "text"));
  return missing.length > 0 ? `The request lacks ${missing.join(" and ")}` : clause(error.message, true);
}

/**
 * One line, in plain English that reads well next to Chinese text, saying
 * what happened and what to do. The request id, when there is one, closes it.
 */
export function describeError(error: unknown, baseUrl: string): string {
  const line = headline(error, baseUrl);
  return error instanceof APIError && error.requestId ? `${line} [${error.requestId}]` : line;
}

function headline(error: unknown, baseUrl: string): string {
  if (error instanceof InsufficientBalanceError) {
    if (error.requiredCents === undefined || error.availableCents === undefined) return `${error.message}`;
    return `Balance ${yuanFromCents(error.availableCents)} is short of the ${yuanFromCents(error.requiredCents)} this text costs; recharge first`;
  }
  if (error instanceof RateLimitError) {
    const limit = error.limit === undefined ? "" : ` (${count(error.limit)} ${error.limit === 1 ? "request" : "requests"} a minute)`;
    const wait = error.retryAfterSeconds === undefined ? "in a minute" : `in ${Math.ceil(error.retryAfterSeconds)} s`;
    return `Rate limit reached${limit}; try again ${wait}`;
  }
  if (error instanceof InvalidApiKeyError) {
    return "The API key was refused: it is unknown or disabled, or its account is; check FANGYAN_API_KEY";
  }
  if (error instanceof MissingApiKeyError) {
    return "The service received no API key; something between here and the service drops the X-API-Key header";
  }
  if (error instanceof AuthError) return clockMessage(error);
  if (error instanceof DecryptionFailedError) {
    return "The service could not decrypt the request; something between here and the service changed it";
  }
  if (error instanceof MissingParameterError) return parameterMessage(error);
  if (error instanceof TextTooLongError) {
    const chars = error.chars === undefined ? "The text is" : `The text has ${count(error.chars)} characters,`;
    return `${chars} over the ${count(error.maxChars)} one request takes`;
  }
  if (error instanceof TtsFailedError) {
    if (error.voiceId !== undefined) return `There is no voice "${error.voiceId}"; \`fy voices\` lists the voices`;
    return `Speech synthesis failed: ${clause(error.message, false)}; nothing was charged`;
  }
  if (error instanceof APITimeoutError) return `${error.message}; the service may be busy, try again`;
  if (error instanceof APIConnectionError) {
    return `${error.message}; is the service running, and is the base URL ${baseUrl} right (FANGYAN_BASE_URL or --base-url)?`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
