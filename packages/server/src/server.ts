import type { FastifyInstance } from "fastify";
import { AccountService } from "./accounts/service.js";
import { buildApp } from "./app.js";
import { openBackends } from "./backends.js";
import type { Config } from "./config/config.js";
import { collectWhenIdle, fullCollection } from "./memory/idle-collector.js";
import { loadLexiconFile } from "./reading/lexicon-file.js";
import { warmUpReading } from "./reading/reader.js";
import { loadCatalog } from "./speech/catalog.js";
import { createEngines } from "./speech/engines.js";

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
  const { voices, models } = loadCatalog(config);
  const lexicon = config.lexiconFile ? loadLexiconFile(config.lexiconFile) : undefined;
  warmUpReading(voices.list(), lexicon);
  const backends = await openBackends(config);
  const { store, audio, limiter, replay } = backends;
  let warn: (detail: Record<string, unknown>, message: string) => void = () => {};
  const engines = await Promise.resolve()
    .then(() =>
      createEngines({
        voices: voices.list(),
        models,
        maxQueue: config.synthesisQueue,
        waitMs: config.synthesisWaitMs,
        secret: config.secret,
        warn: (detail, message) => warn(detail, message),
        ...(config.synthesisThreads === undefined ? {} : { threads: config.synthesisThreads }),
        ...(config.sherpaThreads === undefined ? {} : { sherpaThreads: config.sherpaThreads }),
      }),
    )
    .catch(async (error: unknown) => {
      await backends.close();
      throw error;
    });
  const app = await buildApp({ config, store, engines, voices, audio, limiter, replay, ...(lexicon ? { lexicon } : {}) });
  warn = (detail, message) => app.log.warn(detail, message);

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
    await engines.close();
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
