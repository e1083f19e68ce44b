/**
 * Money through faults, with real server processes: SIGKILL in the middle of
 * streamed texts (SQLite and PostgreSQL), and a replayed envelope with a new
 * timestamp after the replay memory is gone. The invariant checked after each:
 * balance + consumed = recharged = the ledger's sum, and every charge has its
 * audio or its reversal.
 */

import fs from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { AccountService } from "../src/accounts/service.js";
import { openStore, parseStoreLocation } from "../src/store/open.js";
import type { Store } from "../src/store/store.js";
import { createTestDatabase, postgresAvailable } from "./helpers/backends.js";
import { freePort, tempDir } from "./helpers/harness.js";
import { longText, moneyHolds, until } from "./helpers/money.js";
import { spawnServer, testScope } from "./helpers/processes.js";
import { data, SpecClient, seal } from "./helpers/spec-client.js";
import { audioIdOf } from "./helpers/tts-service.js";

const LONG = longText(3000);

const { running, cleanups, end } = testScope();
afterEach(end);

interface Setup {
  name: string;
  /** Environment naming the database; the data dir is added per test. */
  database(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
}

const setups: Setup[] = [{ name: "SQLite", database: async () => ({ env: {}, drop: async () => {} }) }];
if (await postgresAvailable()) {
  setups.push({
    name: "PostgreSQL",
    database: async () => {
      const database = await createTestDatabase();
      return { env: { FANGYAN_DATABASE_URL: database.url }, drop: database.drop };
    },
  });
}

async function boot(env: Record<string, string>, port?: number) {
  port ??= await freePort();
  const server = spawnServer({ FANGYAN_PORT: String(port), FANGYAN_DEMO: "0", FANGYAN_SYNTHESIS_THREADS: "2", ...env });
  running.push(server);
  await server.waitFor(/Fangyan listening on/);
  return { server, port, baseUrl: `http://127.0.0.1:${port}` };
}

async function storeFor(env: Record<string, string>): Promise<Store> {
  const dataDir = env.FANGYAN_DATA_DIR ?? "";
  const store = await openStore(parseStoreLocation(env.FANGYAN_DATABASE_URL, `${dataDir}/fangyan.db`));
  cleanups.push(() => store.close());
  return store;
}

describe.each(setups)("streamed texts killed mid-production ($name)", { timeout: 180_000 }, (setup) => {
  it("SIGKILL after four 3 000-character texts were answered: on restart each unfinished one is given back once, its URL says so, and finished ones keep their audio", async () => {
    const database = await setup.database();
    cleanups.push(database.drop);
    const dataDir = await tempDir();
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const env = { FANGYAN_DATA_DIR: dataDir, ...database.env };
    const first = await boot(env);
    const store = await storeFor(env);
    const created = await new AccountService(store).createAccount({ name: "killed", rechargeYuan: "10" });
    const client = new SpecClient(first.baseUrl, created.apiKey);

    const answers = await Promise.all(Array.from({ length: 4 }, () => client.tts({ text: LONG, voice_id: "cmn-female-1" })));
    const ids = answers.map((answer) => audioIdOf(data<{ audio_url: string }>(answer).audio_url));
    // The premise: charged, and some still being produced when the process dies.
    const producing = (await store.unfinishedProductions()).filter((p) => ids.includes(p.audioId)).map((p) => p.audioId);
    expect(producing.length).toBeGreaterThanOrEqual(1);
    expect((await store.getAccount(created.account.id))?.balanceMicro).toBe(10_000_000 - 4 * 600_000);

    first.server.child.kill("SIGKILL");
    await first.server.exited;

    const second = await boot(env);
    const { account, ledger } = await until("the reversals", async () => {
      const state = await moneyHolds(store, created.account.id);
      return (await store.unfinishedProductions()).length === 0 ? state : undefined;
    });
    // Each charge has its whole audio, or was given back once: never both, never neither.
    let reversed = 0;
    for (const id of ids) {
      const kinds = ledger.filter((e) => e.audioId === id).map((e) => e.kind);
      const audio = await fetch(`${second.baseUrl}/audio/${id}.mp3`);
      if (kinds.includes("reversal")) {
        reversed++;
        expect(kinds).toEqual(["reversal", "charge"]);
        expect(producing).toContain(id);
        expect(audio.status).toBe(410);
        expect(await audio.json()).toMatchObject({ message: expect.stringContaining("its charge was given back") });
      } else {
        expect(kinds).toEqual(["charge"]);
        expect(audio.status).toBe(200);
        expect(Number(audio.headers.get("content-length"))).toBeGreaterThan(100_000);
        await audio.arrayBuffer();
      }
    }
    expect(reversed).toBeGreaterThanOrEqual(1);
    expect(account.balanceMicro).toBe(10_000_000 - (4 - reversed) * 600_000);

    // A third start finds nothing more to give back.
    second.server.child.kill("SIGKILL");
    await second.server.exited;
    await boot(env);
    expect((await moneyHolds(store, created.account.id)).ledger.filter((e) => e.kind === "reversal")).toHaveLength(reversed);
  });
});

describe("an envelope replayed with a new timestamp", { timeout: 180_000 }, () => {
  it("is answered from the first answer and charged once, even after the replay memory is gone with a restart", async () => {
    const dataDir = await tempDir();
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const env = { FANGYAN_DATA_DIR: dataDir };
    const first = await boot(env);
    const store = await storeFor(env);
    const created = await new AccountService(store).createAccount({ name: "replayed", rechargeYuan: "1" });
    const post = (baseUrl: string, body: unknown) => new SpecClient(baseUrl, created.apiKey).send("POST", "/tts", JSON.stringify(body));

    const envelope = seal(created.apiKey, { text: "你好，世界", voice_id: "yue-female-1" }, Date.now() - 299_000);
    const original = await post(first.baseUrl, envelope);
    const answer = data<{ audio_url: string; billing: Record<string, number> }>(original);
    expect(answer.billing).toMatchObject({ cost_yuan: 0.01, balance_after_yuan: 0.99 });

    await new Promise((resolve) => setTimeout(resolve, 3500));
    const replay = await post(first.baseUrl, { ...envelope, timestamp: Date.now() });
    expect(data(replay)).toEqual(answer);

    // A new process has no memory of it: the ledger remembers.
    first.server.child.kill("SIGKILL");
    await first.server.exited;
    const second = await boot(env, first.port);
    const later = await post(second.baseUrl, { ...envelope, timestamp: Date.now() });
    expect(later.status).toBe(200);
    expect(data(later)).toEqual(answer);

    const { account, ledger } = await moneyHolds(store, created.account.id);
    expect(ledger.filter((e) => e.kind === "charge")).toHaveLength(1);
    expect(account.balanceMicro).toBe(990_000);
  });
});
