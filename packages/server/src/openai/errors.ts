/**
 * Failures of the OpenAI-compatible API in OpenAI's shape,
 * `{error: {message, type, param, code}}`, with the statuses of the protocol's
 * one error table (ERRORS[code].openai). Only the compatible API's own
 * refusals (a model or format it does not offer) are worded here.
 */

import { ERRORS, type OpenAiError } from "@fangyan/protocol";
import type { ServiceError } from "../errors.js";
import { SynthesisError } from "../speech/engine.js";

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export interface OpenAiAnswer {
  status: number;
  body: OpenAiErrorBody;
}

/** A request this API refuses for a reason the spec's codes do not name: an unknown model, an unsupported option. */
export class CompatibilityError extends Error {
  override readonly name = "CompatibilityError";

  constructor(
    readonly shape: OpenAiError,
    message: string,
    readonly param: string | null,
  ) {
    super(message);
  }
}

/** Our request fields (as /api/v1 names them) under OpenAI's names, for `param`. */
const FIELD_NAMES: Record<string, string> = { text: "input", voice_id: "voice", format: "response_format", speed: "speed" };

function shapeOf(error: ServiceError): OpenAiError {
  const spec = ERRORS[error.code];
  if (!("openaiWhen" in spec)) return spec.openai;
  const details = error.details as { voice_id?: unknown } | undefined;
  if (details?.voice_id !== undefined) return spec.openaiWhen.unknownVoice;
  if (error.cause instanceof SynthesisError && error.cause.reason === "busy") return spec.openaiWhen.busy;
  if (error.cause instanceof SynthesisError && error.cause.reason === "nothing_to_speak") return spec.openaiWhen.nothingToSpeak;
  if (error.transient) return spec.openaiWhen.unavailable;
  return spec.openai;
}

function paramOf(error: ServiceError): string | null {
  const details = error.details as { missing?: string[]; invalid?: string[]; voice_id?: unknown } | undefined;
  if (details?.voice_id !== undefined) return "voice";
  if (error.cause instanceof SynthesisError && error.cause.reason === "nothing_to_speak") return "input";
  if (error.code === "TEXT_TOO_LONG") return "input";
  const field = details?.missing?.[0] ?? details?.invalid?.[0];
  return field === undefined ? null : (FIELD_NAMES[field] ?? field);
}

export function openAiAnswerOf(error: ServiceError | CompatibilityError): OpenAiAnswer {
  const shape = error instanceof CompatibilityError ? error.shape : shapeOf(error);
  const param = error instanceof CompatibilityError ? error.param : paramOf(error);
  return { status: shape.status, body: { error: { message: error.message, type: shape.type, param, code: shape.code } } };
}

export const invalidRequest = (message: string, param: string | null, code: string | null = null) =>
  new CompatibilityError({ status: 400, type: "invalid_request_error", code }, message, param);
