/**
 * @fangyan/client: the Fangyan API for Node 20 and browsers. Nothing here
 * imports a Node module; Node-only helpers live in "@fangyan/client/node".
 */
export type {
  AccountResult,
  AudioFormatName,
  CliExit,
  Envelope,
  EnvelopeKey,
  ErrorCode,
  ErrorDetailsByCode,
  ErrorSpec,
  OpenAiError,
  SsmlProblem,
  VoiceEntry,
} from "@fangyan/protocol";
// The table of error codes: HTTP status, this SDK's class, `fy`'s exit code, the console's wording.
// The envelope itself, for a custom transport or a test; the client class does all of this for you.
export {
  AUDIO_FORMAT_NAMES,
  AUDIO_FORMATS,
  audioFormatOfFileName,
  CLI_EXIT,
  deriveEnvelopeKey,
  EnvelopeError,
  ERROR_CODES,
  ERRORS,
  escapeSsml,
  isAudioFormatName,
  isEnvelope,
  isSsml,
  MAX_TEXT_CHARS,
  openEnvelope,
  PCM_SAMPLE_RATE,
  sealEnvelope,
} from "@fangyan/protocol";
export { audioDurationMs, JOINABLE_FORMATS } from "./audio/audio.js";
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
export type {
  Account,
  Billing,
  ClientOptions,
  Fetch,
  RequestOptions,
  Subtitles,
  Timing,
  Timings,
  TtsParams,
  TtsResult,
  Voice,
  VoiceList,
} from "./types.js";
