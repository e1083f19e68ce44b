import {
  asSsmlDocument,
  audioFormatOfFileName,
  deriveEnvelopeKey,
  type Envelope,
  type EnvelopeKey,
  isEnvelope,
  isErrorCode,
  openEnvelope,
  sealEnvelope,
  type TtsRequest,
} from "@fangyan/protocol";
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AudioDownloadError,
  apiErrorFor,
  FangyanError,
  parseRetryAfterSeconds,
  RateLimitError,
  UnexpectedResponseError,
} from "./core/errors.js";
import { toAccount, toTtsResult, toVoiceList } from "./core/results.js";
import { canResend, isRetryableStatus, retryDelayMs, sleep } from "./core/retry.js";
import { type LongTtsOptions, type LongTtsResult, ttsLong } from "./long.js";
import type { Account, ClientOptions, Fetch, RequestOptions, TtsParams, TtsResult, VoiceList } from "./types.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080/api/v1";
export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 2;

/** Environment variables where there are some (Node); nothing in a browser. */
function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name]?.trim();
  return value ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** What one attempt ended with: a value, or an error that may be worth a retry. */
type Attempt<T> = { ok: true; value: T } | { ok: false; error: FangyanError; retryable: boolean };

interface Received {
  data: unknown;
  requestId: string | undefined;
}

/**
 * The Fangyan API. One method per operation; every body is sealed and
 * opened with the API key (AES-256-CBC, WebCrypto), so it runs in Node 20
 * and in browsers alike.
 *
 * ```ts
 * const fy = new Fangyan(); // FANGYAN_API_KEY, FANGYAN_BASE_URL
 * const { audioUrl, billing } = await fy.tts({ text: "你好，世界", voiceId: "cmn-female-1" });
 * ```
 */
export class Fangyan {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly #apiKey: string;
  readonly #fetch: Fetch;
  #key: Promise<EnvelopeKey> | undefined;

  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? readEnv("FANGYAN_API_KEY");
    if (apiKey === undefined || apiKey.trim() === "") {
      throw new FangyanError(
        "The FANGYAN_API_KEY environment variable is missing or empty; either provide it, or instantiate the Fangyan client with an apiKey option, like new Fangyan({ apiKey: 'fy_…' })",
      );
    }
    this.#apiKey = apiKey;
    const baseUrl = (options.baseUrl ?? readEnv("FANGYAN_BASE_URL") ?? DEFAULT_BASE_URL).trim().replace(/\/+$/, "");
    if (!URL.canParse(baseUrl) || !/^https?:\/\//i.test(baseUrl)) {
      throw new FangyanError(`The base URL "${baseUrl}" is not an http(s) URL; it should look like ${DEFAULT_BASE_URL}`);
    }
    this.baseUrl = baseUrl;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!(this.timeoutMs > 0)) throw new FangyanError("timeoutMs must be a positive number of milliseconds");
    if (!Number.isInteger(this.maxRetries) || this.maxRetries < 0) throw new FangyanError("maxRetries must be a whole number, 0 or more");
    if (options.fetch === undefined && typeof globalThis.fetch !== "function") {
      throw new FangyanError("No fetch in this runtime; pass one as the fetch option");
    }
    // Called unbound, browsers throw "Illegal invocation".
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /**
   * Synthesizes up to 5000 characters and charges the balance. Retried
   * POSTs re-send the same sealed envelope, so a retry is never charged twice.
   */
  async tts(params: TtsParams, options: RequestOptions = {}): Promise<TtsResult> {
    const payload: TtsRequest = { text: params.ssml === true ? asSsmlDocument(params.text) : params.text, voice_id: params.voiceId };
    if (params.speed !== undefined) payload.speed = params.speed;
    if (params.pitch !== undefined) payload.pitch = params.pitch;
    if (params.volume !== undefined) payload.volume = params.volume;
    if (params.format !== undefined) payload.format = params.format;
    if (params.timings !== undefined) payload.timings = params.timings;
    const { data, requestId } = await this.request("POST", "/tts", payload, options);
    const result = toTtsResult(data, requestId);
    // A service older than formats ignores the field (unknown fields are) and answers MP3: say so, rather than hand MP3 bytes to a WAV reader.
    const answered = audioFormatOfFileName(new URL(result.audioUrl).pathname);
    if (params.format !== undefined && answered !== params.format) {
      throw new UnexpectedResponseError(
        `Asked for ${params.format} audio, the service answered ${answered ?? "a file of no known format"} (${result.audioUrl}); it may predate audio formats (v1 addition): upgrade it. This request was charged`,
        200,
        requestId,
      );
    }
    return result;
  }

  /**
   * Any length of text: split at sentence ends into requests of at most 5000
   * characters, run one after another, and joined into one file (MP3, WAV or
   * PCM; Opus and FLAC only when the text fits one request). Each part is
   * billed on its own (rounded up to 50 characters).
   */
  ttsLong(params: TtsParams, options: LongTtsOptions = {}): Promise<LongTtsResult> {
    return ttsLong(this, params, options);
  }

  /** The voices, grouped by dialect. */
  async voices(options: RequestOptions = {}): Promise<VoiceList> {
    const { data, requestId } = await this.request("GET", "/voices", undefined, options);
    return toVoiceList(data, requestId);
  }

  /** Balance, totals and the price per 10,000 characters that applies now. */
  async account(options: RequestOptions = {}): Promise<Account> {
    const { data, requestId } = await this.request("GET", "/account", undefined, options);
    return toAccount(data, requestId);
  }

  /**
   * The file at an audio URL (any format), or at a subtitle URL. The key is not sent: the URL is a capability
   * and may live on another host (a CDN). Retried like any GET.
   */
  async download(audioUrl: string, options: RequestOptions = {}): Promise<Uint8Array> {
    if (!URL.canParse(audioUrl)) throw new FangyanError(`"${audioUrl}" is not a URL`);
    return this.withRetries<Uint8Array>(options, undefined, async (signal) => {
      const response = await this.send(audioUrl, { method: "GET" }, options, signal, async (r) => new Uint8Array(await r.arrayBuffer()));
      if (response.status >= 200 && response.status < 300) return { ok: true, value: response.body };
      const expired = response.status === 404 || response.status === 410;
      const message = expired
        ? `The audio is gone (HTTP ${response.status}): audio URLs expire after the service's retention period; synthesize the text again`
        : `The audio could not be downloaded (HTTP ${response.status})`;
      return { ok: false, error: new AudioDownloadError(message, response.status), retryable: isRetryableStatus(response.status) };
    });
  }

  /** The AES key of this client's API key, derived once. */
  private envelopeKey(): Promise<EnvelopeKey> {
    this.#key ??= deriveEnvelopeKey(this.#apiKey);
    return this.#key;
  }

  private async request(method: "GET" | "POST", path: string, payload: unknown, options: RequestOptions): Promise<Received> {
    const key = await this.envelopeKey();
    // Sealed once, before the first attempt: every retry sends these same bytes.
    const envelope = payload === undefined ? undefined : await sealEnvelope(key, payload);
    const body = envelope === undefined ? undefined : JSON.stringify(envelope);
    const headers: Record<string, string> = { "X-API-Key": this.#apiKey, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const init: RequestInit = body === undefined ? { method, headers } : { method, headers, body };
    return this.withRetries<Received>(options, envelope, async (signal) => {
      const answer = await this.send(`${this.baseUrl}${path}`, init, options, signal, (response) => response.text());
      return this.readAnswer(key, { status: answer.status, headers: answer.headers, text: answer.body }, envelope);
    });
  }

  /**
   * Runs attempts until one succeeds, one fails for good, or the retries are
   * used up. For a sealed POST, also stops once a re-send would fall outside
   * the envelope's validity window.
   */
  private async withRetries<T>(
    options: RequestOptions,
    envelope: Envelope | undefined,
    attempt: (signal: AbortSignal | undefined) => Promise<Attempt<T>>,
  ): Promise<T> {
    const maxRetries = options.maxRetries ?? this.maxRetries;
    for (let retry = 0; ; retry++) {
      let outcome: Attempt<T>;
      try {
        outcome = await attempt(options.signal);
      } catch (error) {
        if (error instanceof APIUserAbortError) throw error;
        if (!(error instanceof APIConnectionError)) throw error;
        outcome = { ok: false, error, retryable: true };
      }
      if (outcome.ok) return outcome.value;
      const { error } = outcome;
      if (!outcome.retryable || retry >= maxRetries) throw error;
      const delay = retryDelayMs(retry, retryAfterOf(error));
      if (delay === undefined) throw error;
      if (envelope !== undefined && !canResend(envelope.timestamp, Date.now() + delay)) throw error;
      try {
        await sleep(delay, options.signal);
      } catch {
        throw new APIUserAbortError();
      }
    }
  }

  /** One HTTP exchange with a timeout that covers reading the whole answer. */
  private async send<T>(
    url: string,
    init: RequestInit,
    options: RequestOptions,
    signal: AbortSignal | undefined,
    read: (response: Response) => Promise<T>,
  ): Promise<{ status: number; headers: Headers; body: T }> {
    if (signal?.aborted) throw new APIUserAbortError();
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await this.#fetch(url, { ...init, signal: controller.signal });
      const body = await read(response);
      return { status: response.status, headers: response.headers, body };
    } catch (error) {
      if (signal?.aborted) throw new APIUserAbortError();
      if (timedOut) throw new APITimeoutError(`No answer from ${new URL(url).origin} within ${timeoutMs / 1000} s`, { cause: error });
      throw new APIConnectionError(`Cannot reach ${new URL(url).origin}: ${describeCause(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Opens an answer: an envelope, or the plain wrapper sent when no key reached the service. */
  private async readAnswer(key: EnvelopeKey, answer: Answer, envelope: Envelope | undefined): Promise<Attempt<Received>> {
    const requestId = answer.headers.get("x-request-id") ?? undefined;
    const retryable = isRetryableStatus(answer.status);
    const unexpected = (why: string): Attempt<Received> => ({
      ok: false,
      error: new UnexpectedResponseError(`${why} (HTTP ${answer.status}); ${baseUrlHint(this.baseUrl)}`, answer.status, requestId),
      retryable,
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      return unexpected("The answer is not JSON");
    }
    let wrapper: unknown = parsed;
    if (isEnvelope(parsed)) {
      try {
        wrapper = await openEnvelope(key, parsed);
      } catch {
        return unexpected("The answer could not be decrypted with this API key");
      }
    }
    if (!isRecord(wrapper) || typeof wrapper.success !== "boolean") return unexpected("The answer is not a Fangyan response");
    if (wrapper.success) return { ok: true, value: { data: wrapper.data, requestId } };

    const code = wrapper.error_code;
    const message = typeof wrapper.message === "string" ? wrapper.message : String(code);
    if (!isErrorCode(code)) return unexpected(`Unknown error code ${JSON.stringify(code)}: ${message}`);
    const details = isRecord(wrapper.details) ? wrapper.details : undefined;
    const error = apiErrorFor(code, message, { status: answer.status, details, requestId, headers: answer.headers }, envelope?.timestamp);
    return { ok: false, error, retryable };
  }
}

/**
 * What to check when an answer is not the service's: most often a base URL
 * without the version path (`http://host:8080` instead of `http://host:8080/api/v1`).
 */
export function baseUrlHint(baseUrl: string): string {
  let path = "";
  try {
    path = new URL(baseUrl).pathname.replace(/\/+$/, "");
  } catch {
    return `is ${baseUrl} a Fangyan API?`;
  }
  if (!path.endsWith("/api/v1")) {
    const suggested = `${baseUrl.replace(/\/+$/, "")}/api/v1`;
    return `the base URL ${baseUrl} does not end in /api/v1; the API is at ${suggested} when the service runs at ${baseUrl}`;
  }
  return `is ${baseUrl} a Fangyan API?`;
}

/** The server's own wait, from a 429's Retry-After (a 503 may send one too). */
function retryAfterOf(error: FangyanError): number | undefined {
  if (error instanceof RateLimitError) return error.retryAfterSeconds;
  if (error instanceof APIError) return parseRetryAfterSeconds(error.headers?.get("retry-after"));
  return undefined;
}

/** Node's fetch hides the reason (ECONNREFUSED, ...) in `cause`. */
function describeCause(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return "code" in cause && typeof cause.code === "string" ? cause.code : cause.message;
  return error instanceof Error ? error.message : String(error);
}
