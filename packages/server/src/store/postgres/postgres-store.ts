import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { KyselyStore } from "../kysely-store.js";
import { migrateToLatest } from "../migrate.js";
import type { Database } from "../schema.js";

export function postgresKysely(url: string, maxConnections = 10): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections, connectionTimeoutMillis: 10_000 });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on("error", () => {});
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * The cluster store: every Fangyan process points at one PostgreSQL database.
 * The same queries as SQLite; the charge's conditional UPDATE takes the row
 * lock, so concurrent charges from many processes serialise on the account.
 */
export async function openPostgresStore(url: string): Promise<KyselyStore> {
  const db = postgresKysely(url);
  // Kysely's migrator holds a PostgreSQL advisory lock, so processes starting together migrate once.
  await migrateToLatest(db, "postgres");
  return new KyselyStore(db);
}
