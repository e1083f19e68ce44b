import type { FastifyInstance } from "fastify";
import { AccountService } from "./accounts/service.js";
import { buildApp } from "./app.js";
import { openBackends } from "./backends.js";
import type { Config } from "./config/config.js";
import { collectWhenIdle, fullCollection } from "./memory/idle-collector.js";
import { loadLexiconFile } from "./reading/lexicon-file.js";
import { warmUpReading } from "./reading/reader.js";
import { espeakLanguagesOf } from "./speech/espeak/arguments.js";
import { createEspeakEngine } from "./speech/espeak/engine.js";
import { loadVoiceCatalog } from "./speech/voices.js";

export const DEMO_RECHARGE_YUAN = "1";
const SWEEP_EVERY_MS = 10 * 60_000;

export interface RunningServer {
  app: FastifyInstance;
  /** The address it listens on, e.g. http://127.0.0.1:8080 */
  address: string;
  /** The key of the demo account created on this start, shown once; else undefined. */
  demoApiKey: string | undefined;
  close(): Promise<void>;
}

/** How long the server waits, idle after requests, before it collects garbage (memory/idle-collector.ts). */
const IDLE_COLLECT_MS = 5_000;

/** Opens every backend the configuration names, builds the app and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const voices = loadVoiceCatalog(config.voicesFile);
  const lexicon = config.lexiconFile ? loadLexiconFile(config.lexiconFile) : undefined;
  warmUpReading(voices.list(), lexicon);
  const backends = await openBackends(config);
  const { store, audio, limiter, replay } = backends;
  const engine = createEspeakEngine({
    languages: espeakLanguagesOf(voices.list().map((voice) => voice.engine)),
    maxQueue: config.synthesisQueue,
    waitMs: config.synthesisWaitMs,
    ...(config.synthesisThreads === undefined ? {} : { threads: config.synthesisThreads }),
  });
  const app = await buildApp({ config, store, engine, voices, audio, limiter, replay, ...(lexicon ? { lexicon } : {}) });

  const retentionMs = config.audioRetentionDays * 86_400_000;
  const sweep = () =>
    audio.sweep(retentionMs).then(
      (removed) => removed > 0 && app.log.info({ removed }, "expired audio removed"),
      (error: unknown) => app.log.error({ err: error }, "audio sweep failed"),
    );
  const sweeper = setInterval(sweep, SWEEP_EVERY_MS);
  sweeper.unref();
  void sweep();

  app.addHook("onClose", async () => {
    clearInterval(sweeper);
    await engine.close();
    await backends.close();
  });

  // Start-up leaves garbage that V8 may keep for a long time: espeak-ng's 18 MB module file and
  // its slimmed copy, and what building the front-end's dictionaries discarded. One full
  // collection before listening frees it (measured: 20 MB less at start, 12 MB less at the
  // peak under load); later ones run when the server falls idle.
  const collect = fullCollection();
  collect();
  collectWhenIdle(app, IDLE_COLLECT_MS, collect);
  await app.listen({ host: config.host, port: config.port });
  // Only once listening: a first start that fails (a port in use) must not create the demo
  // account, whose key is shown on the start that creates it and never again.
  const demoApiKey = config.demo ? await createDemoAccount(new AccountService(store)) : undefined;
  const bound = app.server.address();
  const port = typeof bound === "object" && bound ? bound.port : config.port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return { app, address: `http://${host}:${port}`, demoApiKey, close: () => app.close() };
}

/**
 * On an empty database, creates the `demo` account with a small balance and
 * returns its key, to be printed once. Later starts find accounts and do nothing.
 */
export async function createDemoAccount(accounts: AccountService): Promise<string | undefined> {
  if ((await accounts.countAccounts()) > 0) return undefined;
  const created = await accounts.createAccount({ name: "demo", rechargeYuan: DEMO_RECHARGE_YUAN });
  return created.apiKey;
}
