import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openPostgresStore } from "../src/store/postgres/postgres-store.js";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { WalVersion } from "../src/store/sqlite/wal-version.js";
import { createTestDatabase, postgresAvailable } from "./helpers/backends.js";
import { tempDir } from "./helpers/harness.js";

/**
 * Store.version: the token the server keeps keys and balances under between
 * requests (api/callers.ts). It must change with every commit, by this
 * process or any other, or the server would answer from a stale copy.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sqliteStore(options: { versionReuseMs?: number } = {}) {
  const dir = await tempDir();
  const file = path.join(dir, "fangyan.db");
  const store = await openSqliteStore(file, options);
  cleanups.push(
    () => fs.rm(dir, { recursive: true, force: true }),
    () => store.close(),
  );
  const account = await store.createAccount({ id: "acct_v", name: "v", createdAt: 1 });
  return { store, file, dir, accountId: account.id };
}

const recharge = { amountMicro: 1_000_000, note: null, at: 1 };

describe("the SQLite store's version", () => {
  it("is the same while nothing is committed, reads included", async () => {
    const { store, accountId } = await sqliteStore({ versionReuseMs: 0 });
    const before = store.version();
    expect(before).toEqual(expect.any(String));
    await store.getAccount(accountId);
    await store.ledger(accountId, { limit: 10 });
    expect(store.version()).toBe(before);
  });

  it("changes with each of its own commits, at once, however long a reading may be reused", async () => {
    const { store, accountId } = await sqliteStore({ versionReuseMs: 60_000 });
    const seen = new Set([store.version()]);
    await store.recharge({ accountId, ...recharge });
    seen.add(store.version());
    await store.charge({ accountId, keyId: "key_x", costMicro: 1, rawChars: 1, billableChars: 50, audioId: "a1", at: 2 });
    seen.add(store.version());
    await store.setAccountStatus(accountId, "disabled");
    seen.add(store.version());
    expect(seen.size).toBe(4);
    expect([...seen].every((v) => typeof v === "string")).toBe(true);
  });

  it("changes with a commit by another process (the admin command's case)", async () => {
    const { store, file, accountId } = await sqliteStore({ versionReuseMs: 0 });
    const before = store.version();
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const script = `const db = new (require(${JSON.stringify(driver)}))(${JSON.stringify(file)}); db.pragma("busy_timeout = 5000");
      db.prepare("update accounts set balance_micro = balance_micro + 7 where id = ?").run(${JSON.stringify(accountId)}); db.close();`;
    await promisify(execFile)(process.execPath, ["-e", script]);
    expect(store.version()).not.toBe(before);
    expect((await store.getAccount(accountId))?.balanceMicro).toBe(7);
  });

  it("reuses a reading for its window only, and sees another connection's commit after it", async () => {
    const { store, file, accountId } = await sqliteStore({ versionReuseMs: 60_000 });
    const before = store.version();
    const other = new SQLite(file);
    other.prepare("update accounts set balance_micro = 5 where id = ?").run(accountId);
    other.close();
    // Within the window the reading stands (the documented bound); a statement of its own forgets it.
    expect(store.version()).toBe(before);
    await store.getAccount(accountId);
    expect(store.version()).not.toBe(before);
  });
});

describe("WalVersion on the shared-memory layout", () => {
  async function shm(bytes: Buffer) {
    const dir = await tempDir();
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, "x.db");
    await fs.writeFile(`${file}-shm`, bytes);
    const version = WalVersion.open(file, { reuseMs: 0 });
    if (!version) throw new Error("not opened");
    cleanups.push(async () => version.close());
    return version;
  }
  const header = (fill: number, isInit = 1) => {
    const copy = Buffer.alloc(48, fill);
    copy[12] = isInit;
    return copy;
  };

  it("reads two equal, initialised copies as the version", async () => {
    const version = await shm(Buffer.concat([header(3), header(3), Buffer.alloc(100)]));
    expect(version.read()).toBe(header(3).toString("latin1"));
  });

  it("tells nothing while a writer is between the two copies, before the header is initialised, or from a short file", async () => {
    expect((await shm(Buffer.concat([header(3), header(4)]))).read()).toBeUndefined();
    expect((await shm(Buffer.concat([header(3, 0), header(3, 0)]))).read()).toBeUndefined();
    expect((await shm(header(3))).read()).toBeUndefined();
  });

  it("is not there for a database without shared memory", async () => {
    const dir = await tempDir();
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    expect(WalVersion.open(path.join(dir, "none.db"))).toBeUndefined();
  });
});

describe("the PostgreSQL store's version", async () => {
  const available = await postgresAvailable();
  it.skipIf(!available)("is undefined, so nothing read from it is kept between requests", async () => {
    const database = await createTestDatabase();
    const store = await openPostgresStore(database.url);
    cleanups.push(database.drop, () => store.close());
    expect(store.version()).toBeUndefined();
  });
});
