import type { FastifyInstance } from "fastify";
import { AccountService } from "./accounts/service.js";
import { buildApp } from "./app.js";
import { openBackends } from "./backends.js";
import type { Config } from "./config/config.js";
import { loadLexiconFile } from "./reading/lexicon-file.js";
import { warmUpReading } from "./reading/reader.js";
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

/** Opens every backend the configuration names, builds the app and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const voices = loadVoiceCatalog(config.voicesFile);
  const lexicon = config.lexiconFile ? loadLexiconFile(config.lexiconFile) : undefined;
  warmUpReading(voices.list(), lexicon);
  const backends = await openBackends(config);
  const { store, audio, limiter, replay } = backends;
  const demoApiKey = config.demo ? await createDemoAccount(new AccountService(store)) : undefined;
  const engine = createEspeakEngine({
    languages: [...new Set(voices.list().map((voice) => voice.engine.espeakVoice.split("-")[0] ?? ""))],
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

  await app.listen({ host: config.host, port: config.port });
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
