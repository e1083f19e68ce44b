import type { SsmlDocument, SsmlError } from "@fangyan/frontend";
import {
  AUDIO_FORMAT_NAMES,
  type AudioFormatName,
  countChars,
  DEFAULT_AUDIO_FORMAT,
  isAudioFormatName,
  MAX_TEXT_CHARS,
} from "@fangyan/protocol";
import { ServiceError } from "../errors.js";
import type { SpeechInput } from "../reading/reader.js";
import type { SynthesisRequest } from "../speech/engine.js";
import type { Voice } from "../speech/voices.js";
import { checkSsmlText } from "../ssml/check.js";

/** A validated POST /tts plaintext (steps 7 and 8 of the error order). */
export interface TtsParams {
  text: string;
  voiceId: string;
  rawChars: number;
  speed: number;
  pitch: number;
  volume: number;
  /** The audio file's format (a v1 addition); mp3 unless asked. */
  format: AudioFormatName;
  /** The answer carries sentence timings and subtitle files (tts/timings.ts). */
  timings: boolean;
  /** The text is SSML (ssml/): this is the document it says. */
  ssml?: SsmlDocument;
}

/** The v1 voice controls: optional numbers with these ranges, 1.0 by default. */
export const VOICE_CONTROLS = {
  speed: { min: 0.5, max: 2 },
  pitch: { min: 0.5, max: 2 },
  volume: { min: 0.1, max: 2 },
} as const;

type Control = keyof typeof VOICE_CONTROLS;

function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

export function parseTtsRequest(plaintext: Record<string, unknown>): TtsParams {
  const missing = (["text", "voice_id"] as const).filter((field) => !isNonEmptyString(plaintext[field]));
  const invalid: Array<Control | "format" | "timings"> = (Object.keys(VOICE_CONTROLS) as Control[]).filter((field) => {
    const value = plaintext[field];
    if (value === undefined) return false;
    const { min, max } = VOICE_CONTROLS[field];
    return typeof value !== "number" || !Number.isFinite(value) || value < min || value > max;
  });
  const badFormat = plaintext.format !== undefined && !isAudioFormatName(plaintext.format);
  if (badFormat) invalid.push("format");
  if (plaintext.timings !== undefined && typeof plaintext.timings !== "boolean") invalid.push("timings");
  const ssml = typeof plaintext.text === "string" ? checkSsmlText(plaintext.text) : { ssml: false as const };
  if (missing.length > 0 || invalid.length > 0 || "error" in ssml) {
    const parts: string[] = [];
    if (missing.length > 0) parts.push(`${missing.join(" and ")} must be given as a non-empty string`);
    if ("error" in ssml) parts.push(ssml.message);
    for (const field of invalid) {
      if (field === "format") {
        parts.push(`format must be one of ${AUDIO_FORMAT_NAMES.join(", ")}`);
        continue;
      }
      if (field === "timings") {
        parts.push("timings must be true or false");
        continue;
      }
      const { min, max } = VOICE_CONTROLS[field];
      parts.push(`${field} must be a number from ${min} to ${max}`);
    }
    const details: { missing?: string[]; invalid?: string[]; ssml?: SsmlError } = {};
    if (missing.length > 0) details.missing = missing;
    if ("error" in ssml) details.invalid = ["text", ...invalid];
    else if (invalid.length > 0) details.invalid = invalid;
    if ("error" in ssml) details.ssml = ssml.error;
    throw new ServiceError("MISSING_PARAMETER", `${parts.join("; ")}.`, details);
  }
  const text = plaintext.text as string;
  const rawChars = countChars(text);
  if (rawChars > MAX_TEXT_CHARS) {
    throw new ServiceError("TEXT_TOO_LONG", `Text has ${rawChars} characters; the limit is ${MAX_TEXT_CHARS}`, {
      max_chars: MAX_TEXT_CHARS,
      chars: rawChars,
    });
  }
  const control = (field: Control) => {
    const value = plaintext[field];
    return typeof value === "number" ? value : 1;
  };
  return {
    text,
    voiceId: plaintext.voice_id as string,
    rawChars,
    speed: control("speed"),
    pitch: control("pitch"),
    volume: control("volume"),
    format: isAudioFormatName(plaintext.format) ? plaintext.format : DEFAULT_AUDIO_FORMAT,
    timings: plaintext.timings === true,
    ...("document" in ssml ? { ssml: ssml.document } : {}),
  };
}

/** What the engine is asked for one part of a request: its reading, the voice and the controls. */
export function synthesisRequest(
  input: SpeechInput,
  voice: Voice,
  params: Pick<TtsParams, "speed" | "pitch" | "volume">,
  followedByMore: boolean,
): SynthesisRequest {
  return {
    text: input.reading.engine_input,
    markup: input.markup,
    voice: voice.engine,
    speed: params.speed,
    pitch: params.pitch,
    volume: params.volume,
    ...(followedByMore ? { followedByMore: true } : {}),
  };
}
