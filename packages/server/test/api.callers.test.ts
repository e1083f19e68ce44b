import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { AccountService } from "../src/accounts/service.js";
import { Callers } from "../src/api/callers.js";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { Store } from "../src/store/store.js";
import { startTestServer, tempDir } from "./helpers/harness.js";
import { data } from "./helpers/spec-client.js";

/**
 * Keys and balances kept between requests (api/callers.ts): read once, used
 * while the store's version stands, and never staler than a query would be.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real SQLite store whose owner lookups are counted. */
async function setUp(options: { version?: (store: Store) => string | undefined; ttlMs?: number; maxEntries?: number } = {}) {
  const dir = await tempDir();
  const file = path.join(dir, "fangyan.db");
  const store = await openSqliteStore(file, { versionReuseMs: 0 });
  cleanups.push(
    () => fs.rm(dir, { recursive: true, force: true }),
    () => store.close(),
  );
  let lookups = 0;
  const findKeyOwner = store.findKeyOwner.bind(store);
  store.findKeyOwner = (digest) => {
    lookups++;
    return findKeyOwner(digest);
  };
  const accounts = new AccountService(store);
  let clock = 1_000;
  const callers = new Callers(accounts, {
    version: () => (options.version ?? ((s) => s.version()))(store),
    now: () => clock,
    ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
    ...(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries }),
  });
  const customer = await accounts.createAccount({ name: "c", rechargeYuan: "10" });
  return {
    file,
    accounts,
    callers,
    customer,
    lookups: () => lookups,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe("Callers", () => {
  it("reads a key once and answers its next requests without the store, with the same envelope key", async () => {
    const { callers, customer, lookups } = await setUp();
    const first = await callers.identify(customer.apiKey);
    const again = await callers.identify(customer.apiKey);
    expect(lookups()).toBe(1);
    expect(again.owner?.account.balanceMicro).toBe(10_000_000);
    expect(again.envelopeKey.aesKey.equals(createHash("sha256").update(customer.apiKey).digest())).toBe(true);
    expect(again.envelopeKey).toBe(first.envelopeKey);
    expect(Object.isFrozen(again.owner?.account)).toBe(true);
  });

  it("reads again after any commit: another connection's recharge, or a key disabled", async () => {
    const { callers, customer, lookups, file, accounts } = await setUp();
    await callers.identify(customer.apiKey);
    const other = new SQLite(file);
    other.prepare("update accounts set balance_micro = balance_micro + 5 where id = ?").run(customer.account.id);
    other.close();
    expect((await callers.identify(customer.apiKey)).owner?.account.balanceMicro).toBe(10_000_005);
    expect(lookups()).toBe(2);
    await accounts.setKeyStatus(customer.apiKey, "disabled");
    expect((await callers.identify(customer.apiKey)).owner).toBeUndefined();
    expect(callers.size).toBe(0);
  });

  it("keeps nothing when the store has no version (PostgreSQL)", async () => {
    const { callers, customer, lookups } = await setUp({ version: () => undefined });
    await callers.identify(customer.apiKey);
    await callers.identify(customer.apiKey);
    expect(lookups()).toBe(2);
    expect(callers.size).toBe(0);
  });

  it("keeps no unknown key, so random keys cannot fill memory", async () => {
    const { callers } = await setUp();
    for (let i = 0; i < 20; i++) {
      const answer = await callers.identify(`fy_${String(i).padStart(32, "x")}`);
      expect(answer.owner).toBeUndefined();
      expect(answer.envelopeKey.aesKey).toHaveLength(32);
    }
    expect(callers.size).toBe(0);
  });

  it("forgets a key after its time to live, and never holds more than its bound", async () => {
    const { callers, customer, lookups, advance, accounts } = await setUp({ ttlMs: 60_000, maxEntries: 2 });
    await callers.identify(customer.apiKey);
    advance(60_000);
    await callers.identify(customer.apiKey);
    expect(lookups()).toBe(2);

    const more = [await accounts.issueKey(customer.account.id), await accounts.issueKey(customer.account.id)];
    for (const issued of more) await callers.identify(issued.apiKey);
    expect(callers.size).toBe(2);
    // The oldest kept key was dropped; the two newest are answered without the store.
    const before = lookups();
    for (const issued of more) await callers.identify(issued.apiKey);
    expect(lookups()).toBe(before);
    await callers.identify(customer.apiKey);
    expect(lookups()).toBe(before + 1);
  });
});

describe("GET /account between commits, through the running server", () => {
  it("shows each charge of its own and each change by the admin's connection on the very next request", async () => {
    const t = await startTestServer();
    cleanups.push(() => t.close());
    const { client, accountId, apiKey } = await t.newCustomer("10");
    const balance = async () => data<{ balance_yuan: number }>(await client.account()).balance_yuan;
    expect(await balance()).toBe(10);
    expect(await balance()).toBe(10);
    expect((await client.tts({ text: "你好", voice_id: "cmn-female-1" })).status).toBe(200);
    expect(await balance()).toBe(9.99);
    await t.accounts.recharge(accountId, "1");
    expect(await balance()).toBe(10.99);
    await t.accounts.setKeyStatus(apiKey, "disabled");
    expect((await client.account()).body.error_code).toBe("INVALID_API_KEY");
  });
});
