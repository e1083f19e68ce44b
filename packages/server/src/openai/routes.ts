import { MAX_TEXT_CHARS } from "@fangyan/protocol";
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import { authenticator, type PresentedKey } from "../api/authenticate.js";
import { ownerOf } from "../api/caller.js";
import type { Callers } from "../api/callers.js";
import { idempotencyFingerprint } from "../api/fingerprint.js";
import { contentTypeOfKey } from "../audio/ids.js";
import type { AudioInProgress } from "../audio/in-progress.js";
import { followProduction, GIVEN_BACK, GIVING_BACK, type UnfinishedOutcome } from "../audio/routes.js";
import type { AudioStore } from "../audio/store.js";
import { ServiceError } from "../errors.js";
import type { RateLimiter } from "../ratelimit/limiter.js";
import { BackendUnavailableError } from "../redis/unavailable.js";
import type { VoiceCatalog } from "../speech/voices.js";
import type { Spoken, TtsService } from "../tts/service.js";
import { CompatibilityError, invalidRequest, type OpenAiErrorBody, openAiAnswerOf } from "./errors.js";
import { parseSpeechRequest, SPEECH_MODELS } from "./request.js";

export interface OpenAiRoutesOptions {
  callers: Callers;
  limiter: RateLimiter;
  tts: TtsService;
  voices: VoiceCatalog;
  audio: AudioStore;
  inProgress: AudioInProgress;
  /** Where the money of audio that failed after its charge is (ProductionKeeper.outcome). */
  unfinished: (key: string) => Promise<UnfinishedOutcome>;
  rateLimitPerMinute: number;
  authFailuresPerMinute: number;
  bodyLimitBytes: number;
}

/** `Authorization: Bearer <API key>`, as OpenAI's clients send it. */
const bearer: PresentedKey = {
  header: "authorization",
  keyOf: (value) => /^Bearer (.*)$/i.exec(value.trim())?.[1] ?? undefined,
  missing: "The Authorization header must be `Bearer <your Fangyan API key>`",
  empty: "The Authorization header holds an empty key",
};

// Printable ASCII, as the IETF draft and OpenAI's clients use it ("stainless-node-retry-<uuid>").
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** When the models "were created", for clients that show it: the day this API was added. */
const MODELS_CREATED = 1_795_392_000;

function sendError(reply: FastifyReply, status: number, body: OpenAiErrorBody): FastifyReply {
  return reply.code(status).type("application/json; charset=utf-8").send(body);
}

/**
 * `/v1`: the OpenAI-compatible speech API, beside `/api/v1` and sharing its
 * accounts, keys, prices, 50-character steps, ledger, per-key rate limit and
 * failed-key limit. Plain JSON in, the audio itself out, streamed as it is
 * produced; the charge is in the response headers.
 */
export async function openAiRoutes(app: FastifyInstance, options: OpenAiRoutesOptions): Promise<void> {
  // curl -d sends no JSON content type: any body is read as text and parsed here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
  app.addHook("onRequest", authenticator({ ...options, presented: bearer }));

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof ServiceError || error instanceof CompatibilityError) {
      const answer = openAiAnswerOf(error);
      if (answer.status === 503) reply.header("Retry-After", 5);
      return sendError(reply, answer.status, answer.body);
    }
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      const tooLarge = invalidRequest(
        `The request body is over ${options.bodyLimitBytes} bytes, more than any ${MAX_TEXT_CHARS}-character input needs`,
        "input",
        "string_above_max_length",
      );
      return sendError(reply, 400, openAiAnswerOf(tooLarge).body);
    }
    if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, error.statusCode, openAiAnswerOf(invalidRequest("The request could not be read", null)).body);
    }
    if (error instanceof BackendUnavailableError) {
      request.log.warn({ err: error }, "backend unavailable");
      reply.header("Retry-After", 5);
      return sendError(reply, 503, {
        error: {
          message: "The service is temporarily unavailable; retry in a few seconds",
          type: "server_error",
          param: null,
          code: "service_unavailable",
        },
      });
    }
    request.log.error({ err: error }, "unexpected error");
    return sendError(reply, 500, {
      error: { message: "Internal error; nothing was charged. Try again", type: "server_error", param: null, code: null },
    });
  });

  const model = (id: string) => ({ id, object: "model", created: MODELS_CREATED, owned_by: "fangyan" });
  app.get("/models", async () => ({ object: "list", data: SPEECH_MODELS.map(model) }));
  app.get<{ Params: { model: string } }>("/models/:model", async (request) => {
    const { model: id } = request.params;
    if (!(SPEECH_MODELS as readonly string[]).includes(id)) {
      throw new CompatibilityError(
        { status: 404, type: "invalid_request_error", code: "model_not_found" },
        `The model \`${id}\` does not exist`,
        "model",
      );
    }
    return model(id);
  });

  app.get("/audio/voices", async () => ({
    voices: options.voices.list().map((voice) => ({
      id: voice.id,
      name: voice.name,
      dialect_code: voice.dialect_code,
      dialect: voice.dialect_label,
      ...(voice.gender ? { gender: voice.gender } : {}),
    })),
  }));

  app.post("/audio/speech", async (request, reply) => {
    const keyOwner = ownerOf(request);
    const text = typeof request.body === "string" ? request.body : "";
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw invalidRequest("The request body is not valid JSON", null);
    }
    const params = parseSpeechRequest(body);
    const header = request.headers["idempotency-key"];
    let fingerprint: string | undefined;
    if (header !== undefined) {
      if (typeof header !== "string" || !IDEMPOTENCY_KEY.test(header)) {
        throw invalidRequest("Idempotency-Key must be 1 to 255 printable ASCII characters", null);
      }
      fingerprint = idempotencyFingerprint(keyOwner.key.id, header, text);
    }
    const spoken = await options.tts.speakAudio(keyOwner, params, fingerprint);
    return sendAudio(reply, spoken);
  });

  /** The charge in headers, then the audio: from memory while it is produced, else from the store. */
  async function sendAudio(reply: FastifyReply, { result, audioKey }: Spoken): Promise<FastifyReply> {
    const { billing } = result;
    reply.header("X-Fangyan-Raw-Chars", billing.raw_chars);
    reply.header("X-Fangyan-Billable-Chars", billing.billable_chars);
    reply.header("X-Fangyan-Cost-Yuan", billing.cost_yuan.toFixed(2));
    reply.header("X-Fangyan-Balance-After-Yuan", billing.balance_after_yuan.toFixed(2));
    reply.header("X-Fangyan-Audio-Url", result.audio_url);
    reply.header("Cache-Control", "no-store");
    reply.type(contentTypeOfKey(audioKey));
    const production = options.inProgress.get(audioKey);
    if (production) return reply.send(followProduction(production));
    const read = await options.audio.read(audioKey, undefined);
    if (read && read !== "unsatisfiable") return reply.header("Content-Length", read.contentLength).send(read.body);
    // A retry of a request answered long ago whose audio is gone, or one whose production failed.
    const outcome = options.inProgress.failure(audioKey) ?? (await options.unfinished(audioKey));
    reply.removeHeader("Content-Type");
    if (outcome) {
      const { message } = outcome === "reversed" ? GIVEN_BACK : GIVING_BACK;
      return sendError(reply, 500, { error: { message, type: "server_error", param: null, code: "audio_not_finished" } });
    }
    return sendError(reply, 410, {
      error: {
        message: "This request was answered before and its audio has expired; send it with a new Idempotency-Key",
        type: "invalid_request_error",
        param: null,
        code: "audio_expired",
      },
    });
  }
}
