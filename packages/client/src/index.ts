/**
 * @fangyan/client: the Fangyan API for Node 20 and browsers. Nothing here
 * imports a Node module; Node-only helpers live in "@fangyan/client/node".
 */
export type { AccountResult, Envelope, EnvelopeKey, ErrorCode, ErrorDetailsByCode, VoiceEntry } from "@fangyan/protocol";
// The envelope itself, for a custom transport or a test; the client class does all of this for you.
export { deriveEnvelopeKey, EnvelopeError, isEnvelope, MAX_TEXT_CHARS, openEnvelope, sealEnvelope } from "@fangyan/protocol";
export { estimateCost } from "./billing.js";
export { DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, Fangyan } from "./client.js";
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AudioDownloadError,
  AuthError,
  DecryptionFailedError,
  FangyanError,
  InsufficientBalanceError,
  InvalidApiKeyError,
  MissingApiKeyError,
  MissingParameterError,
  RateLimitError,
  TextTooLongError,
  TtsFailedError,
  UnexpectedResponseError,
} from "./core/errors.js";
export type { LongTtsClient, LongTtsOptions, LongTtsPart, LongTtsProgress, LongTtsResult } from "./long.js";
export { splitText } from "./text/split.js";
export type { Account, Billing, ClientOptions, Fetch, RequestOptions, TtsParams, TtsResult, Voice, VoiceList } from "./types.js";
