import type { Account, Timing, Timings, TtsResult, Voice, VoiceList } from "../types.js";
import { UnexpectedResponseError } from "./errors.js";

/*
 * The wire's snake_case data turned into the SDK's camelCase results. Fields
 * the SDK does not know are ignored (v1 grows by addition); a field it needs
 * that is missing or of the wrong type means this is not the service it expects.
 */

type Fields = Record<string, unknown>;

function record(value: unknown, what: string, requestId: string | undefined): Fields {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UnexpectedResponseError(`The service's ${what} is not an object`, 200, requestId);
  }
  return value as Fields;
}

function field<T extends "string" | "number">(
  from: Fields,
  name: string,
  type: T,
  requestId: string | undefined,
): T extends "string" ? string : number {
  const value = from[name];
  if (typeof value !== type || (type === "number" && !Number.isFinite(value))) {
    throw new UnexpectedResponseError(`The service's answer lacks ${name} (a ${type})`, 200, requestId);
  }
  return value as T extends "string" ? string : number;
}

function optionalString(from: Fields, name: string): string | undefined {
  const value = from[name];
  return typeof value === "string" ? value : undefined;
}

export function toTtsResult(data: unknown, requestId: string | undefined): TtsResult {
  const result = record(data, "speech result", requestId);
  const billing = record(result.billing, "billing", requestId);
  return {
    audioUrl: field(result, "audio_url", "string", requestId),
    billing: {
      rawChars: field(billing, "raw_chars", "number", requestId),
      billableChars: field(billing, "billable_chars", "number", requestId),
      costYuan: field(billing, "cost_yuan", "number", requestId),
      balanceAfterYuan: field(billing, "balance_after_yuan", "number", requestId),
    },
    requestId,
    ...(result.timings === undefined ? {} : { timings: toTimings(result.timings, requestId) }),
    ...(result.subtitles === undefined ? {} : { subtitles: toSubtitles(result.subtitles, requestId) }),
  };
}

function toTimingList(value: unknown, what: string, requestId: string | undefined): Timing[] {
  if (!Array.isArray(value)) throw new UnexpectedResponseError(`The service's ${what} is not a list`, 200, requestId);
  return value.map((entry: unknown) => {
    const timing = record(entry, what, requestId);
    return {
      text: field(timing, "text", "string", requestId),
      startMs: field(timing, "start_ms", "number", requestId),
      endMs: field(timing, "end_ms", "number", requestId),
    };
  });
}

function toTimings(value: unknown, requestId: string | undefined): Timings {
  const timings = record(value, "timings", requestId);
  return {
    sentences: toTimingList(timings.sentences, "sentence timings", requestId),
    ...(timings.chars === undefined ? {} : { chars: toTimingList(timings.chars, "character timings", requestId) }),
  };
}

function toSubtitles(value: unknown, requestId: string | undefined): { vtt: string; srt: string } {
  const subtitles = record(value, "subtitles", requestId);
  return { vtt: field(subtitles, "vtt", "string", requestId), srt: field(subtitles, "srt", "string", requestId) };
}

export function toVoiceList(data: unknown, requestId: string | undefined): VoiceList {
  const groups = record(record(data, "voice list", requestId).voices, "voice groups", requestId);
  const voices: Voice[] = [];
  const byDialect: Record<string, Voice[]> = {};
  for (const [dialect, entries] of Object.entries(groups)) {
    if (!Array.isArray(entries)) throw new UnexpectedResponseError(`The service's voice group ${dialect} is not a list`, 200, requestId);
    byDialect[dialect] = entries.map((entry: unknown) => {
      const fields = record(entry, "voice entry", requestId);
      const voice: Voice = {
        id: field(fields, "id", "string", requestId),
        name: field(fields, "name", "string", requestId),
        dialect,
        dialectCode: optionalString(fields, "dialect_code"),
        gender: optionalString(fields, "gender"),
      };
      voices.push(voice);
      return voice;
    });
  }
  return { voices, byDialect, requestId };
}

export function toAccount(data: unknown, requestId: string | undefined): Account {
  const account = record(data, "account", requestId);
  return {
    name: field(account, "name", "string", requestId),
    balanceYuan: field(account, "balance_yuan", "number", requestId),
    totalRechargeYuan: field(account, "total_recharge_yuan", "number", requestId),
    totalConsumedYuan: field(account, "total_consumed_yuan", "number", requestId),
    pricePerWanYuan: field(account, "price_per_wan_yuan", "number", requestId),
    requestId,
  };
}
