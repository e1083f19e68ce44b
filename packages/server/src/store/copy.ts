import { type Kysely, sql } from "kysely";
import { migrateToLatest } from "./migrate.js";
import { openKysely, type StoreLocation } from "./open.js";
import type { Database } from "./schema.js";

export interface CopyReport {
  accounts: number;
  keys: number;
  ledgerRows: number;
  /** Sum of all balances in micro-yuan, equal on both sides. */
  balanceMicro: number;
}

const BATCH = 500;

/**
 * Copies accounts, keys and the whole ledger (ids kept) from one database to
 * an empty one, in one transaction on the target, then checks that balances,
 * totals and ledger sums agree on both sides. Stop the servers first.
 */
export async function copyStore(from: StoreLocation, to: StoreLocation): Promise<CopyReport> {
  const source = await openKysely(from, 2);
  const target = await openKysely(to, 2);
  try {
    await migrateToLatest(source, from.kind);
    await migrateToLatest(target, to.kind);
    const existing = await target
      .selectFrom("accounts")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    if (Number(existing.n) > 0) throw new Error("The target database already has accounts; copy into an empty database only");

    await target.transaction().execute(async (trx) => {
      for (const table of ["accounts", "api_keys", "ledger", "productions"] as const) {
        for (let offset = 0; ; offset += BATCH) {
          const rows = await source
            .selectFrom(table)
            .selectAll()
            .orderBy(table === "productions" ? "audio_id" : "id")
            .limit(BATCH)
            .offset(offset)
            .execute();
          if (rows.length === 0) break;
          await trx
            .insertInto(table)
            .values(rows as never)
            .execute();
        }
      }
      if (to.kind === "postgres") {
        // Ledger ids were copied as they were: move the sequence past them.
        await sql`select setval(pg_get_serial_sequence('ledger', 'id'), coalesce((select max(id) from ledger), 0) + 1, false)`.execute(trx);
      }
    });
    const [before, after] = await Promise.all([summarize(source), summarize(target)]);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      throw new Error(`The copy does not match its source: ${JSON.stringify(before)} vs ${JSON.stringify(after)}`);
    }
    return after;
  } finally {
    await Promise.allSettled([source.destroy(), target.destroy()]);
  }
}

async function summarize(db: Kysely<Database>): Promise<CopyReport> {
  const accounts = await db
    .selectFrom("accounts")
    .select((eb) => [eb.fn.countAll<number | string>().as("n"), eb.fn.sum<number | string | null>("balance_micro").as("balance")])
    .executeTakeFirstOrThrow();
  const keys = await db
    .selectFrom("api_keys")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  const ledger = await db
    .selectFrom("ledger")
    .select((eb) => [eb.fn.countAll<number | string>().as("n"), eb.fn.sum<number | string | null>("amount_micro").as("sum")])
    .executeTakeFirstOrThrow();
  const balanceMicro = Number(accounts.balance ?? 0);
  if (Number(ledger.sum ?? 0) !== balanceMicro) throw new Error("The ledger does not sum to the balances");
  return { accounts: Number(accounts.n), keys: Number(keys.n), ledgerRows: Number(ledger.n), balanceMicro };
}
