import type { ErrorCode, ErrorDetailsByCode } from "./errors.js";
import type { AudioFormatName } from "./formats.js";

/** The encrypted envelope (interface 2.1): every POST body and every response body. */
export interface Envelope {
  encryptedData: string;
  iv: string;
  timestamp: number;
}

export interface ApiSuccess<T> {
  success: true;
  data: T;
}

export interface ApiFailure<C extends ErrorCode = ErrorCode> {
  success: false;
  error_code: C;
  message: string;
  details?: ErrorDetailsByCode[C];
}

/** The decrypted response wrapper (interface 2.2). */
export type ApiResponse<T> = ApiSuccess<T> | ApiFailure;

/** Plaintext of `POST /tts`. `speed`, `pitch`, `volume`, `format` and `timings` are v1 additions. */
export interface TtsRequest {
  text: string;
  voice_id: string;
  speed?: number;
  pitch?: number;
  volume?: number;
  /** The audio file's format; `audio_url` ends in its extension. Default mp3. */
  format?: AudioFormatName;
  /** Ask for the sentence timings and the WebVTT / SRT subtitle files of the audio. */
  timings?: boolean;
}

export interface Billing {
  raw_chars: number;
  billable_chars: number;
  cost_yuan: number;
  balance_after_yuan: number;
}

/** Where a piece of the text is heard, in milliseconds on the decoded audio's timeline. */
export interface Timing {
  text: string;
  start_ms: number;
  end_ms: number;
}

/**
 * `data.timings` of a `POST /tts` that asked for them (v1 addition): every
 * sentence, in order; `chars` only where the engine reports character or
 * syllable timings itself.
 */
export interface TtsTimings {
  sentences: Timing[];
  chars?: Timing[];
}

/** `data.subtitles` (v1 addition): the timings as subtitle files beside the audio, with the audio's lifetime. */
export interface TtsSubtitles {
  vtt: string;
  srt: string;
}

export interface TtsResult {
  audio_url: string;
  billing: Billing;
  /** Present when the request asked for `timings`. */
  timings?: TtsTimings;
  /** Present when the request asked for `timings`. */
  subtitles?: TtsSubtitles;
}

export interface VoiceEntry {
  id: string;
  name: string;
  dialect_code?: string;
  gender?: string;
  [extra: string]: unknown;
}

export interface VoicesResult {
  voices: Record<string, VoiceEntry[]>;
}

export interface AccountResult {
  name: string;
  balance_yuan: number;
  total_recharge_yuan: number;
  total_consumed_yuan: number;
  price_per_wan_yuan: number;
}

/** A request is valid from 5 minutes before to 1 minute after the server's clock. */
export const REQUEST_MAX_AGE_MS = 300_000;
export const REQUEST_MAX_FUTURE_MS = 60_000;
