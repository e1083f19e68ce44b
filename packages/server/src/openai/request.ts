/**
 * The body of POST /v1/audio/speech, as OpenAI's API reference defines it:
 * `{model, input, voice, response_format, speed}` (plus `instructions` and
 * `stream_format`, which are accepted and documented). It becomes the same
 * TtsParams as a POST /tts of /api/v1, so billing and synthesis are shared.
 */

import { AUDIO_FORMAT_NAMES, isAudioFormatName } from "@fangyan/protocol";
import { ServiceError } from "../errors.js";
import { parseTtsRequest, type TtsParams, VOICE_CONTROLS } from "../tts/request.js";
import { CompatibilityError, invalidRequest } from "./errors.js";

/**
 * The `model` values accepted, all meaning the same: the voice decides the
 * engine (espeak-ng, a neural model or a speech server), so OpenAI's model
 * names are accepted as they are for clients that cannot change theirs.
 */
export const SPEECH_MODELS = ["fangyan-tts", "tts-1", "tts-1-hd", "gpt-4o-mini-tts"] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function missing(field: string, what: string): ServiceError<"MISSING_PARAMETER"> {
  return new ServiceError("MISSING_PARAMETER", `${field} must be given as ${what}.`, { missing: [field] });
}

function invalid(field: string, message: string): ServiceError<"MISSING_PARAMETER"> {
  return new ServiceError("MISSING_PARAMETER", message, { invalid: [field] });
}

export function parseSpeechRequest(body: unknown): TtsParams {
  if (!isObject(body)) throw invalidRequest("The request body must be a JSON object", null);
  const { model, input, voice, response_format: format, speed, stream_format: streamFormat } = body;
  if (typeof model !== "string" || model === "") throw missing("model", `one of ${SPEECH_MODELS.join(", ")}`);
  if (!(SPEECH_MODELS as readonly string[]).includes(model)) {
    throw new CompatibilityError(
      { status: 404, type: "invalid_request_error", code: "model_not_found" },
      `The model \`${model}\` does not exist; GET /v1/models lists ${SPEECH_MODELS.join(", ")}`,
      "model",
    );
  }
  if (typeof input !== "string" || input === "") throw missing("input", "a non-empty string");
  // OpenAI's newer API also takes a voice as {id}; ours are ids either way.
  const voiceId = isObject(voice) ? voice.id : voice;
  if (typeof voiceId !== "string" || voiceId === "") throw missing("voice", "a voice id (GET /v1/audio/voices lists them)");
  if (format !== undefined && !isAudioFormatName(format)) {
    const aac = format === "aac" ? " (AAC is not offered: no well-kept AAC encoder runs on Node; see docs/formats.md)" : "";
    throw invalid("response_format", `response_format must be one of ${AUDIO_FORMAT_NAMES.join(", ")}${aac}.`);
  }
  const { min, max } = VOICE_CONTROLS.speed;
  if (speed !== undefined && (typeof speed !== "number" || !Number.isFinite(speed) || speed < min || speed > max)) {
    throw invalid("speed", `speed must be a number from ${min} to ${max} (narrower than OpenAI's 0.25 to 4).`);
  }
  if (streamFormat !== undefined && streamFormat !== "audio") {
    throw invalidRequest(
      'stream_format must be "audio": the audio is streamed as it is produced; server-sent events are not offered',
      "stream_format",
    );
  }
  // Length and the rest are checked as for /api/v1; `instructions` is accepted and not used.
  return parseTtsRequest({ text: input, voice_id: voiceId, format: format ?? "mp3", ...(speed === undefined ? {} : { speed }) });
}
