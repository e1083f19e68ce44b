import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDatabase, postgresAvailable } from "./helpers/backends.js";
import { startTestServer, tempDir } from "./helpers/harness.js";
import { fangyan } from "./helpers/processes.js";
import { data, SpecClient } from "./helpers/spec-client.js";

const ready = await postgresAvailable();

describe("fangyan migrate", () => {
  it("brings a new SQLite database up to date, then says it is", async () => {
    const dataDir = await tempDir();
    const first = await fangyan(["migrate", "--json"], { FANGYAN_DATA_DIR: dataDir });
    expect(JSON.parse(first.stdout)).toEqual({ applied: ["0001_accounts_keys_ledger", "0002_request_fingerprints_and_productions"] });
    const second = await fangyan(["migrate"], { FANGYAN_DATA_DIR: dataDir });
    expect(second.stdout).toMatch(/is up to date/);
  });

  it("refuses half an instruction", async () => {
    const result = await fangyan(["migrate", "--from", "sqlite:x.db"], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/both --from and --to/);
  });

  it.runIf(ready)(
    "moves a live SQLite service to PostgreSQL: same accounts, keys, balances and ledger",
    async () => {
      // A single-node service with history: charges, recharges, a disabled key.
      const single = await startTestServer();
      const { client, accountId, apiKey } = await single.newCustomer("5", "搬家客户");
      expect(data(await client.tts({ text: "搬到新数据库", voice_id: "cmn-female-1" }))).toBeDefined();
      const spare = await single.accounts.issueKey(accountId);
      await single.accounts.setKeyStatus(spare.apiKey, "disabled");
      // Stop the service but keep its data directory: it is the source of the move.
      await single.server.close();
      await single.store.close();
      const sqliteFile = path.join(single.dataDir, "fangyan.db");

      const database = await createTestDatabase();
      try {
        const copied = await fangyan(["migrate", "--from", `sqlite:${sqliteFile}`, "--to", database.url, "--json"], {});
        expect(copied.stderr).toBe("");
        expect(JSON.parse(copied.stdout)).toMatchObject({ accounts: 1, keys: 2, ledgerRows: 2, balanceMicro: 4_990_000 });

        // Copying again into the now non-empty database is refused.
        const again = await fangyan(["migrate", "--from", `sqlite:${sqliteFile}`, "--to", database.url], {});
        expect(again.code).toBe(1);
        expect(again.stderr).toMatch(/already has accounts/);

        const moved = await startTestServer({ FANGYAN_DATABASE_URL: database.url });
        try {
          const sameKey = new SpecClient(moved.baseUrl, apiKey);
          expect(data(await sameKey.account())).toMatchObject({ name: "搬家客户", balance_yuan: 4.99, total_consumed_yuan: 0.01 });
          const next = data<{ billing: { balance_after_yuan: number } }>(await sameKey.tts({ text: "你好", voice_id: "cmn-female-1" }));
          expect(next.billing.balance_after_yuan).toBe(4.98);
          const ledger = await moved.accounts.ledger(accountId, { limit: 10 });
          expect(ledger.map((e) => e.kind)).toEqual(["charge", "charge", "recharge"]);
          expect(new Set(ledger.map((e) => e.id)).size).toBe(3);
          expect((await moved.accounts.listKeys(accountId)).map((k) => k.status).sort()).toEqual(["active", "disabled"]);
        } finally {
          await moved.close();
        }
      } finally {
        await database.drop();
        await fs.rm(single.dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
