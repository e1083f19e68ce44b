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

  const charge = (accountId: string, costMicro: number, extra: { fingerprint?: string; producedBy?: string; audioId?: string } = {}) =>
    store.charge({ accountId, keyId: "key_x", costMicro, rawChars: 1, billableChars: 50, audioId: id("audio"), at: Date.now(), ...extra });

  async function balanceMatchesLedger(accountId: string) {
    const account = await store.getAccount(accountId);
    const ledger = await store.ledger(accountId, { limit: 500 });
    expect(ledger.reduce((sum, e) => sum + e.amountMicro, 0)).toBe(account?.balanceMicro);
    expect((account?.totalRechargeMicro ?? 0) - (account?.totalConsumedMicro ?? 0)).toBe(account?.balanceMicro);
    return { account, ledger };
  }

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
    expect(await charge(accountId, 10_001)).toEqual({ ok: false, reason: "balance", balanceMicro: 10_000 });
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

  it("a request fingerprint is charged once, ever: a second charge with it answers the first and charges nothing", async () => {
    const accountId = await accountWith(50_000);
    const fingerprint = id("fingerprint");
    const first = await charge(accountId, 10_000, { fingerprint });
    if (!first.ok) throw new Error("charge refused");
    const again = await charge(accountId, 10_000, { fingerprint });
    expect(again).toEqual({ ok: false, reason: "duplicate", entry: first.entry });
    expect(await store.chargeOf(fingerprint)).toEqual(first.entry);
    expect(await store.chargeOf(id("unknown"))).toBeUndefined();
    const { account, ledger } = await balanceMatchesLedger(accountId);
    expect(account?.balanceMicro).toBe(40_000);
    expect(ledger.filter((e) => e.kind === "charge")).toHaveLength(1);
  });

  it("20 concurrent charges of one fingerprint charge once, and all of them name that one charge", async () => {
    const accountId = await accountWith(500_000);
    const fingerprint = id("fingerprint");
    const results = await Promise.all(Array.from({ length: 20 }, () => charge(accountId, 10_000, { fingerprint })));
    const charged = results.filter((r) => r.ok);
    expect(charged).toHaveLength(1);
    const first = charged[0]?.ok ? charged[0].entry : undefined;
    for (const result of results) expect(result.ok ? result.entry : result.reason === "duplicate" ? result.entry : result).toEqual(first);
    const { account } = await balanceMatchesLedger(accountId);
    expect(account?.balanceMicro).toBe(490_000);
  });

  it("a charge for audio still produced writes its production row in the same transaction; finishing removes it", async () => {
    const accountId = await accountWith(20_000);
    const audioId = id("audio");
    const charged = await charge(accountId, 5_000, { producedBy: "host/1/abc", audioId });
    if (!charged.ok) throw new Error("charge refused");
    expect(await store.production(audioId)).toMatchObject({
      audioId,
      chargeEntryId: charged.entry.id,
      owner: "host/1/abc",
      state: "producing",
    });
    expect((await store.unfinishedProductions()).map((p) => p.audioId)).toContain(audioId);
    await store.finishProduction(audioId);
    expect(await store.production(audioId)).toBeUndefined();
    // Finished: there is nothing left to reverse.
    expect(await store.reverseProduction(audioId, Date.now())).toBeUndefined();
    expect((await store.getAccount(accountId))?.balanceMicro).toBe(15_000);
  });

  it("a refused charge writes no production row", async () => {
    const accountId = await accountWith(1_000);
    const audioId = id("audio");
    expect(await charge(accountId, 5_000, { producedBy: "host/1/abc", audioId })).toMatchObject({ ok: false, reason: "balance" });
    expect(await store.production(audioId)).toBeUndefined();
  });

  it("an unfinished production is reversed once, even by concurrent takers, and stays marked reversed", async () => {
    const accountId = await accountWith(20_000);
    const audioId = id("audio");
    const charged = await charge(accountId, 6_000, { producedBy: "host/1/abc", audioId });
    if (!charged.ok) throw new Error("charge refused");
    const results = await Promise.all(Array.from({ length: 5 }, () => store.reverseProduction(audioId, 9)));
    const reversals = results.filter((r) => r !== undefined);
    expect(reversals).toHaveLength(1);
    expect(reversals[0]).toMatchObject({ kind: "reversal", amountMicro: 6_000, audioId });
    expect(await store.production(audioId)).toMatchObject({ state: "reversed" });
    expect((await store.unfinishedProductions()).map((p) => p.audioId)).not.toContain(audioId);
    const { account } = await balanceMatchesLedger(accountId);
    expect(account?.balanceMicro).toBe(20_000);
  });

  it("a heartbeat moves only its owner's productions", async () => {
    const accountId = await accountWith(20_000);
    const mine = id("audio");
    const theirs = id("audio");
    await charge(accountId, 1_000, { producedBy: "host/1/mine", audioId: mine });
    await charge(accountId, 1_000, { producedBy: "host/2/theirs", audioId: theirs });
    const later = Date.now() + 60_000;
    await store.heartbeatProductions("host/1/mine", later);
    expect((await store.production(mine))?.heartbeatAt).toBe(later);
    expect((await store.production(theirs))?.heartbeatAt).toBeLessThan(later);
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
