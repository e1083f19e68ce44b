import {
  type AudioFormatName,
  asSsmlDocument,
  centsDown,
  centsUp,
  countChars,
  DEFAULT_AUDIO_FORMAT,
  estimateCostYuan,
  isSsml,
  MICRO_PER_YUAN,
  microToYuan,
} from "@fangyan/protocol";
import { audioDurationMs, canJoin, cannotJoinMessage, joinAudio } from "./audio/audio.js";
import { FangyanError, InsufficientBalanceError } from "./core/errors.js";
import { splitText } from "./text/split.js";
import type { Account, Billing, RequestOptions, Timings, TtsParams, TtsResult } from "./types.js";

export interface LongTtsPart {
  /** 0-based position in the text. */
  index: number;
  /** Characters (code points) of this part's text. */
  chars: number;
  audioUrl: string;
  /** This part's own charge: each part is rounded up to 50 characters on its own. */
  billing: Billing;
  requestId: string | undefined;
  /** Size of this part's audio file. */
  bytes: number;
  durationMs: number;
  /** This part's subtitle files, when `timings` were asked for: timed from this part's own start. */
  subtitles?: { vtt: string; srt: string } | undefined;
}

export interface LongTtsProgress {
  /** Parts synthesized, downloaded and charged so far. */
  partsDone: number;
  parts: number;
  charsDone: number;
  chars: number;
  /** The part just finished; absent in the first report, sent before any request. */
  part?: LongTtsPart;
}

export interface LongTtsOptions extends RequestOptions {
  /** Called once before the first request and once after each part. */
  onProgress?: ((progress: LongTtsProgress) => void) | undefined;
  /**
   * With more than one part, compare the whole cost with the balance first
   * and throw InsufficientBalanceError before anything is charged. Default true.
   */
  checkBalance?: boolean | undefined;
}

export interface LongTtsResult {
  /**
   * One file for the whole text, in `format`: MP3 frames joined under one
   * header stating the full duration; WAV samples end to end under one header;
   * PCM bytes end to end. A text of one request is the service's file unchanged.
   */
  audio: Uint8Array;
  /** The format of `audio`: the `format` asked for, mp3 by default. */
  format: AudioFormatName;
  /** @deprecated The same bytes as `audio`, whatever the format (named when there was only MP3). */
  mp3: Uint8Array;
  parts: LongTtsPart[];
  /** The sum of the parts' durations. */
  durationMs: number;
  rawChars: number;
  /** The sum of the parts' billable characters. */
  billableChars: number;
  /** The sum of the parts' charges. */
  costYuan: number;
  balanceAfterYuan: number;
  /**
   * With `timings: true`, every part's timings on the joined file's timeline:
   * each part starts where the parts before it end (their MP3 frames, or
   * their samples for WAV and PCM).
   */
  timings?: Timings | undefined;
}

/** What ttsLong needs of a client. */
export interface LongTtsClient {
  tts(params: TtsParams, options?: RequestOptions): Promise<TtsResult>;
  download(audioUrl: string, options?: RequestOptions): Promise<Uint8Array>;
  account(options?: RequestOptions): Promise<Account>;
}

const toMicro = (yuan: number) => Math.round(yuan * MICRO_PER_YUAN);

async function checkBalance(client: LongTtsClient, pieces: readonly string[], options: RequestOptions): Promise<void> {
  const account = await client.account(options);
  let costMicro = 0;
  for (const piece of pieces) costMicro += toMicro(estimateCostYuan(piece, account.pricePerWanYuan));
  const balanceMicro = toMicro(account.balanceYuan);
  if (balanceMicro >= costMicro) return;
  // The same condition and details the service would answer, found before the first part is charged.
  throw new InsufficientBalanceError(`The balance is too low for this text (${pieces.length} requests); recharge first`, {
    code: "INSUFFICIENT_BALANCE",
    status: 402,
    details: { required_cents: centsUp(costMicro), available_cents: centsDown(balanceMicro) },
  });
}

/**
 * Speaks a text of any length: split by `splitText`, one request per piece
 * (an SSML document, which cannot be cut, is one request of at most 5000 characters),
 * one after another (so as not to crowd the rate limit), each file downloaded
 * and all of them joined. A failure stops the run; the parts done before it
 * were charged, as `onProgress` reported. Opus and FLAC files cannot be
 * joined: a text of several requests in either is refused before anything is
 * sent or charged (a FangyanError saying to ask for wav, or to call tts per part).
 */
export async function ttsLong(client: LongTtsClient, params: TtsParams, options: LongTtsOptions = {}): Promise<LongTtsResult> {
  // An SSML document is sent whole, as one request: cut, it would no longer be XML.
  const ssml = params.ssml === true || isSsml(params.text);
  const sent = params.ssml === true ? asSsmlDocument(params.text) : params.text;
  const pieces = ssml ? [sent] : splitText(sent);
  if (pieces.length === 0) throw new FangyanError("The text holds nothing to speak, only white space");
  const chars = countChars(sent);
  const format = params.format ?? DEFAULT_AUDIO_FORMAT;
  if (pieces.length > 1 && !canJoin(format)) throw new FangyanError(cannotJoinMessage(format, pieces.length));
  const { onProgress, checkBalance: check = true, ...requestOptions } = options;
  if (pieces.length > 1 && check) await checkBalance(client, pieces, requestOptions);

  onProgress?.({ partsDone: 0, parts: pieces.length, charsDone: 0, chars });
  const parts: LongTtsPart[] = [];
  const audio: Uint8Array[] = [];
  const timings: Timings = { sentences: [] };
  let charsDone = 0;
  let startMs = 0;
  for (const [index, text] of pieces.entries()) {
    const result = await client.tts({ ...params, text }, requestOptions);
    const file = await client.download(result.audioUrl, requestOptions);
    const part: LongTtsPart = {
      index,
      chars: countChars(text),
      audioUrl: result.audioUrl,
      billing: result.billing,
      requestId: result.requestId,
      bytes: file.length,
      durationMs: audioDurationMs(format, file),
      ...(result.subtitles ? { subtitles: result.subtitles } : {}),
    };
    // joinAudio keeps every MP3 frame (a decoder skips only the first part's encoder delay) or every sample.
    const shift = (timing: { text: string; startMs: number; endMs: number }) => ({
      text: timing.text,
      startMs: Math.round(timing.startMs + startMs),
      endMs: Math.round(timing.endMs + startMs),
    });
    timings.sentences.push(...(result.timings?.sentences ?? []).map(shift));
    if (result.timings?.chars) timings.chars = [...(timings.chars ?? []), ...result.timings.chars.map(shift)];
    startMs += part.durationMs;
    parts.push(part);
    audio.push(file);
    charsDone += part.chars;
    onProgress?.({ partsDone: parts.length, parts: pieces.length, charsDone, chars, part });
  }

  const last = parts[parts.length - 1];
  // One part is the service's file as it is; only several need joining.
  const joined = joinAudio(format, audio);
  return {
    audio: joined,
    format,
    mp3: joined,
    parts,
    durationMs: parts.reduce((sum, part) => sum + part.durationMs, 0),
    rawChars: parts.reduce((sum, part) => sum + part.billing.rawChars, 0),
    billableChars: parts.reduce((sum, part) => sum + part.billing.billableChars, 0),
    costYuan: microToYuan(parts.reduce((sum, part) => sum + toMicro(part.billing.costYuan), 0)),
    balanceAfterYuan: last ? last.billing.balanceAfterYuan : 0,
    ...(params.timings ? { timings } : {}),
  };
}
