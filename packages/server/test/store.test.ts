import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "../src/store/postgres/postgres-store.js";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { Store } from "../src/store/store.js";
import { createTestDatabase, postgresAvailable } from "./helpers/backends.js";
import { tempDir } from "./helpers/harness.js";

/** Every store backend runs the same suite, concurrency cases included. */
const backends: Array<{ name: string; open: () => Promise<{ store: Store; cleanup: () => Promise<void> }> }> = [
  {
    name: "SQLite",
    open: async () => {
      const dir = await tempDir();
      const store = await openSqliteStore(path.join(dir, "fangyan.db"));
      return { store, cleanup: () => fs.rm(dir, { recursive: true, force: true }) };
    },
  },
];
if (await postgresAvailable()) {
  backends.push({
    name: "PostgreSQL",
    open: async () => {
      const database = await createTestDatabase();
      const store = await openPostgresStore(database.url);
      return { store, cleanup: database.drop };
    },
  });
}

let seq = 0;
const id = (prefix: string) => `${prefix}_${process.pid}_${++seq}`;

describe.each(backends)("the $name store", ({ open }) => {
  let store: Store;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ store, cleanup } = await open());
  });
  afterAll(async () => {
    await store.close();
    await cleanup();
  });

  async function accountWith(micro: number) {
    const account = await store.createAccount({ id: id("acct"), name: "t", createdAt: Date.now() });
    if (micro > 0) await store.recharge({ accountId: account.id, amountMicro: micro, note: null, at: Date.now() });
    return account.id;
  }

  const charge = (accountId: string, costMicro: number) =>
    store.charge({ accountId, keyId: "key_x", costMicro, rawChars: 1, billableChars: 50, audioId: id("audio"), at: Date.now() });

  it("a recharge raises balance and total recharge, with a ledger row", async () => {
    const accountId = await accountWith(0);
    const entry = await store.recharge({ accountId, amountMicro: 5_000_000, note: "first", at: 1 });
    expect(entry).toMatchObject({ kind: "recharge", amountMicro: 5_000_000, balanceAfterMicro: 5_000_000, note: "first" });
    expect(await store.getAccount(accountId)).toMatchObject({ balanceMicro: 5_000_000, totalRechargeMicro: 5_000_000 });
    expect(await store.recharge({ accountId: "acct_missing", amountMicro: 1, note: null, at: 1 })).toBeUndefined();
  });

  it("a charge lowers the balance and records what was bought", async () => {
    const accountId = await accountWith(20_000);
    const audioId = id("audio");
    const result = await store.charge({ accountId, keyId: "key_x", costMicro: 8_750, rawChars: 37, billableChars: 50, audioId, at: 1234 });
    expect(result).toMatchObject({
      ok: true,
      entry: {
        accountId,
        kind: "charge",
        amountMicro: -8_750,
        balanceAfterMicro: 11_250,
        keyId: "key_x",
        rawChars: 37,
        billableChars: 50,
        audioId,
        note: null,
        createdAt: 1234,
      },
    });
    expect(await store.getAccount(accountId)).toMatchObject({ balanceMicro: 11_250, totalConsumedMicro: 8_750 });
  });

  it("a charge larger than the balance is refused and changes nothing", async () => {
    const accountId = await accountWith(10_000);
    expect(await charge(accountId, 10_001)).toEqual({ ok: false, balanceMicro: 10_000 });
    expect(await store.ledger(accountId, { limit: 10 })).toHaveLength(1);
  });

  it("100 concurrent charges never take the balance below zero, and the ledger sums to the balance", async () => {
    const accountId = await accountWith(370_000);
    const results = await Promise.all(Array.from({ length: 100 }, () => charge(accountId, 10_000)));
    expect(results.filter((r) => r.ok)).toHaveLength(37);
    const account = await store.getAccount(accountId);
    expect(account?.balanceMicro).toBe(0);
    const ledger = await store.ledger(accountId, { limit: 500 });
    expect(ledger.reduce((sum, e) => sum + e.amountMicro, 0)).toBe(0);
    expect((account?.totalRechargeMicro ?? 0) - (account?.totalConsumedMicro ?? 0)).toBe(account?.balanceMicro);
  });

  it("a reversal gives a charge back whole, once, and the ledger still sums to the balance", async () => {
    const accountId = await accountWith(20_000);
    const charged = await charge(accountId, 8_750);
    if (!charged.ok) throw new Error("charge refused");
    const reversal = await store.reverse({ chargeEntryId: charged.entry.id, at: 5 });
    expect(reversal).toMatchObject({
      kind: "reversal",
      amountMicro: 8_750,
      balanceAfterMicro: 20_000,
      audioId: charged.entry.audioId,
      keyId: "key_x",
    });
    const account = await store.getAccount(accountId);
    expect(account).toMatchObject({ balanceMicro: 20_000, totalConsumedMicro: 0 });
    expect(await store.reverse({ chargeEntryId: charged.entry.id, at: 6 })).toBeUndefined();
    const ledger = await store.ledger(accountId, { limit: 10 });
    expect(ledger.map((e) => e.kind)).toEqual(["reversal", "charge", "recharge"]);
    expect(ledger.reduce((sum, e) => sum + e.amountMicro, 0)).toBe(20_000);
  });

  it("concurrent reversals of one charge give it back only once", async () => {
    const accountId = await accountWith(20_000);
    const charged = await charge(accountId, 10_000);
    if (!charged.ok) throw new Error("charge refused");
    const results = await Promise.all(Array.from({ length: 5 }, () => store.reverse({ chargeEntryId: charged.entry.id, at: 7 })));
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect((await store.getAccount(accountId))?.balanceMicro).toBe(20_000);
  });

  it("only a charge can be reversed", async () => {
    const accountId = await accountWith(0);
    const recharge = await store.recharge({ accountId, amountMicro: 5, note: null, at: 1 });
    expect(await store.reverse({ chargeEntryId: recharge?.id ?? 0, at: 2 })).toBeUndefined();
    expect(await store.reverse({ chargeEntryId: 987_654_321, at: 2 })).toBeUndefined();
    expect((await store.getAccount(accountId))?.balanceMicro).toBe(5);
  });

  it("pages the ledger newest first", async () => {
    const accountId = await accountWith(0);
    for (let i = 1; i <= 5; i++) await store.recharge({ accountId, amountMicro: i, note: null, at: i });
    const first = await store.ledger(accountId, { limit: 2 });
    expect(first.map((e) => e.amountMicro)).toEqual([5, 4]);
    const next = await store.ledger(accountId, { limit: 10, beforeId: first[1]?.id ?? 0 });
    expect(next.map((e) => e.amountMicro)).toEqual([3, 2, 1]);
  });

  it("finds a key only by its lookup digest, with its account", async () => {
    const accountId = await accountWith(0);
    const digest = id("digest");
    const key = await store.insertKey({ id: id("key"), accountId, lookupDigest: digest, prefix: "fy_abcdefgh", createdAt: 1 });
    expect(await store.findKeyOwner(digest)).toMatchObject({ key: { id: key.id, status: "active" }, account: { id: accountId } });
    expect(await store.findKeyOwner("nope")).toBeUndefined();
    expect(await store.setKeyStatus(key.id, "disabled")).toMatchObject({ status: "disabled" });
    expect((await store.findKeysByPrefix("fy_abcdefgh")).map((k) => k.id)).toContain(key.id);
  });
});
