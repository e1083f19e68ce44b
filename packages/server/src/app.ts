import path from "node:path";
import type { Lexicon } from "@fangyan/frontend";
import Fastify, { type FastifyInstance } from "fastify";
import { newId } from "./accounts/keys.js";
import { AccountService } from "./accounts/service.js";
import { adminRoutes } from "./admin/http.js";
import { Callers } from "./api/callers.js";
import { registerCors } from "./api/cors.js";
import { apiRoutes } from "./api/routes.js";
import { AudioInProgress } from "./audio/in-progress.js";
import { audioRoutes } from "./audio/routes.js";
import type { AudioStore } from "./audio/store.js";
import type { Config } from "./config/config.js";
import { audioOriginsOf, consoleRoutes } from "./console/routes.js";
import { FreeSpace } from "./disk/free-space.js";
import { requestSerializer } from "./logging.js";
import { openAiRoutes } from "./openai/routes.js";
import type { RateLimiter } from "./ratelimit/limiter.js";
import type { ReplayCache } from "./replay/cache.js";
import type { SpeechEngines } from "./speech/engine.js";
import type { VoiceCatalog } from "./speech/voices.js";
import type { Store } from "./store/store.js";
import { AudioCache } from "./tts/audio-cache.js";
import { ProductionKeeper } from "./tts/productions.js";
import { TtsService } from "./tts/service.js";

export interface AppDependencies {
  config: Config;
  store: Store;
  /** The engine of each voice (speech/engines.ts). */
  engines: SpeechEngines;
  voices: VoiceCatalog;
  audio: AudioStore;
  limiter: RateLimiter;
  replay: ReplayCache;
  /** The operator lexicon (FANGYAN_LEXICON_FILE), if any. */
  lexicon?: Lexicon;
  /** false in tests; pino options otherwise. */
  logger?: boolean | { level: string };
  now?: () => number;
}

/**
 * Builds the HTTP application from its parts. It does not listen: tests
 * inject into it or listen on port 0, and server.ts owns the process.
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel, serializers: { req: requestSerializer } },
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs + 10_000,
    keepAliveTimeout: 65_000,
    forceCloseConnections: "idle",
    trustProxy: config.trustProxy,
    genReqId: () => newId("req"),
    // Clients must not choose our request ids.
    requestIdHeader: false,
  });
  app.server.headersTimeout = 15_000;

  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
    // Closing ends the keep-alive connections that are idle at that moment. One whose response was
    // still being written becomes idle only afterwards, and would hold the close for its whole
    // keep-alive timeout (65 s): such connections are ended as soon as they fall idle.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    sweep.unref();
    app.server.once("close", () => clearInterval(sweep));
  });
  // Synchronous hooks: they run on every request, and a promise per request is measurable.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("X-Request-Id", request.id);
    done();
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    // Decided at send time: a request already in flight when draining began must close its
    // keep-alive connection too, or that connection would hold the exit.
    if (closing) reply.header("Connection", "close");
    done(null, payload);
  });
  registerCors(app, config.corsOrigins);
  const storage = freeSpaceOf(config);
  // Engines are reported beside the status: an HTTP endpoint that is backing off is "down" there,
  // while the service itself stays up for every other voice.
  app.get("/healthz", async (_request, reply) => {
    if (closing) return reply.code(503).send({ status: "closing" });
    const disk = storage?.status();
    if (disk?.full) {
      // New paid work is refused until space is freed; a load balancer should send it elsewhere.
      return reply.code(503).send({ status: "storage_full", free_bytes: disk.freeBytes, min_free_bytes: disk.minFreeBytes });
    }
    return { status: "ok", engines: deps.engines.health() };
  });

  const accounts = new AccountService(deps.store, deps.now);
  const inProgress = new AudioInProgress();
  const productions = new ProductionKeeper({
    store: deps.store,
    audio: deps.audio,
    log: app.log,
    leaseMs: config.productionLeaseMs,
    inProgress,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const tts = new TtsService({
    store: deps.store,
    engines: deps.engines,
    voices: deps.voices,
    audio: deps.audio,
    log: app.log,
    ...(deps.lexicon ? { lexicon: deps.lexicon } : {}),
    ...(config.audioCacheBytes > 0 ? { cache: new AudioCache(config.audioCacheBytes) } : {}),
    inProgress,
    productions,
    ...(storage ? { storage } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
  // Charges of productions left unfinished by a process that is gone are given back before the
  // first request; from then on, heartbeats, retries and take-overs run in the background.
  app.addHook("onReady", async () => {
    await productions.tick();
    productions.start();
  });
  // Before the engine and the store close (server.ts): streamed texts finish first.
  app.addHook("onClose", async () => {
    await tts.drain();
    await productions.stop();
  });

  const callers = new Callers(accounts, { version: () => deps.store.version() });
  await app.register(apiRoutes, {
    prefix: "/api/v1",
    callers,
    limiter: deps.limiter,
    replay: deps.replay,
    tts,
    voices: deps.voices,
    rateLimitPerMinute: config.rateLimitPerMinute,
    authFailuresPerMinute: config.authFailuresPerMinute,
    bodyLimitBytes: config.bodyLimitBytes,
    ...(deps.now ? { now: deps.now } : {}),
  });
  if (config.openaiApi) {
    await app.register(openAiRoutes, {
      prefix: "/v1",
      callers,
      limiter: deps.limiter,
      tts,
      voices: deps.voices,
      audio: deps.audio,
      inProgress,
      unfinished: (key) => productions.outcome(key),
      rateLimitPerMinute: config.rateLimitPerMinute,
      authFailuresPerMinute: config.authFailuresPerMinute,
      bodyLimitBytes: config.bodyLimitBytes,
    });
  }
  await app.register(audioRoutes, {
    prefix: "/audio",
    store: deps.audio,
    retentionMs: config.audioRetentionDays * 86_400_000,
    inProgress,
    unfinished: (id) => productions.outcome(id),
  });
  await app.register(adminRoutes, {
    prefix: "/admin/v1",
    accounts,
    adminToken: config.adminToken,
    limiter: deps.limiter,
    failuresPerMinute: config.authFailuresPerMinute,
  });
  await app.register(consoleRoutes, { audioOrigins: audioOriginsOf(config) });
  return app;
}

/** Where this process writes locally (the SQLite database, the audio folder), if anywhere. */
function freeSpaceOf(config: Config): FreeSpace | undefined {
  const paths: string[] = [];
  if (config.database.kind === "sqlite") paths.push(path.dirname(config.database.file));
  if (!config.s3) paths.push(config.audioDir);
  return paths.length > 0 ? new FreeSpace(paths, config.minFreeBytes) : undefined;
}
