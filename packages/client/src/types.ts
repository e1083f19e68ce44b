import type { AudioFormatName } from "@fangyan/protocol";

/** A `fetch` with the WHATWG signature: Node 20's, a browser's, or a wrapper around either. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** Defaults to the FANGYAN_API_KEY environment variable (in Node). */
  apiKey?: string | undefined;
  /** Ends in /api/v1. Defaults to FANGYAN_BASE_URL, else http://127.0.0.1:8080/api/v1. */
  baseUrl?: string | undefined;
  /** Per attempt, from sending to the last byte of the answer. Default 120,000 (2 minutes). */
  timeoutMs?: number | undefined;
  /** Retries after a network failure, a timeout, a 429 or a 5xx. Default 2. */
  maxRetries?: number | undefined;
  /** Defaults to globalThis.fetch. */
  fetch?: Fetch | undefined;
}

/** Per-call overrides. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
}

export interface TtsParams {
  /** 1 to 5000 characters (Unicode code points). Longer texts: `ttsLong`. */
  text: string;
  /** An id from `voices()`, e.g. "yue-female-1". */
  voiceId: string;
  /** Speaking rate, 0.5 to 2.0 (default 1.0). */
  speed?: number | undefined;
  /** 0.5 to 2.0 (default 1.0). */
  pitch?: number | undefined;
  /** 0.1 to 2.0 (default 1.0). */
  volume?: number | undefined;
  /**
   * The audio file's format: "mp3" (default), "wav" (16-bit mono at the voice's
   * rate), "pcm" (raw signed 16-bit little-endian mono at 24 kHz, `PCM_SAMPLE_RATE`),
   * "opus" (Ogg Opus, 48 kHz) or "flac". Same price in every format. `ttsLong`
   * joins mp3, wav and pcm; a text of several requests in opus or flac is refused.
   */
  format?: AudioFormatName | undefined;
  /** Ask for sentence timings and subtitle files (`TtsResult.timings`, `.subtitles`). Same price. */
  timings?: boolean | undefined;
  /**
   * The text is SSML (`<break>`, `<prosody>`, `<say-as>`, `<phoneme>`, …): sent
   * as a `<speak>` document, wrapped in one when it does not start with
   * `<speak`. A text that starts with `<speak` is SSML anyway. Billed as sent,
   * tags included; never split by `ttsLong`. Put your own text inside
   * elements with `escapeSsml`.
   */
  ssml?: boolean | undefined;
}

/** Where a piece of the text is heard, in milliseconds of the decoded audio. */
export interface Timing {
  text: string;
  startMs: number;
  endMs: number;
}

export interface Timings {
  /** Every sentence with something to speak, in order. */
  sentences: Timing[];
  /** Character or syllable timings, only where the engine reports them (no engine does yet). */
  chars?: Timing[] | undefined;
}

/** Subtitle files beside the audio, with its lifetime: capability URLs like `audioUrl`. */
export interface Subtitles {
  vtt: string;
  srt: string;
}

export interface Billing {
  /** Characters (code points) in the text. */
  rawChars: number;
  /** rawChars rounded up to a multiple of 50: what is charged. */
  billableChars: number;
  costYuan: number;
  balanceAfterYuan: number;
}

export interface TtsResult {
  /**
   * The audio, in the `format` asked for (MP3 by default); the URL ends in its
   * extension (`.mp3`, `.wav`, `.pcm`, `.opus`, `.flac`) and the host serves the
   * matching Content-Type. A capability URL: it needs no key, and expires after
   * the service's retention (7 days by default).
   */
  audioUrl: string;
  billing: Billing;
  requestId: string | undefined;
  /** Present when asked for with `timings: true`. */
  timings?: Timings | undefined;
  /** Present when asked for with `timings: true`. */
  subtitles?: Subtitles | undefined;
}

export interface Voice {
  /** The value to pass as `voiceId`. */
  id: string;
  name: string;
  /** The dialect group label the service lists the voice under, e.g. "粤语". */
  dialect: string;
  /** ISO 639-3, e.g. "yue", "cmn". */
  dialectCode: string | undefined;
  gender: string | undefined;
}

export interface VoiceList {
  /** Every voice, in the service's order. */
  voices: Voice[];
  /** The same voices grouped by dialect label, as GET /voices sends them. */
  byDialect: Record<string, Voice[]>;
  requestId: string | undefined;
}

export interface Account {
  name: string;
  balanceYuan: number;
  totalRechargeYuan: number;
  totalConsumedYuan: number;
  /** The price that applies now, in yuan per 10,000 characters: it falls as the total recharge grows. */
  pricePerWanYuan: number;
  requestId: string | undefined;
}
