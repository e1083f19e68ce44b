import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { KyselyStore } from "../kysely-store.js";
import { migrateToLatest } from "../migrate.js";
import type { Database } from "../schema.js";

/** Where a lost idle connection is reported; the server passes its logger. */
export type PoolErrorLog = (error: Error) => void;

const toStderr: PoolErrorLog = (error) => process.stderr.write(`fangyan: a PostgreSQL connection was lost: ${error.message}\n`);

export function postgresKysely(url: string, maxConnections = 10, onIdleError: PoolErrorLog = toStderr): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections, connectionTimeoutMillis: 10_000 });
  // An idle client that loses its server must not crash the process (the next query reports
  // it to its caller), but the loss itself is logged with its cause.
  pool.on("error", onIdleError);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * The cluster store: every Fangyan process points at one PostgreSQL database.
 * The same queries as SQLite; the charge's conditional UPDATE takes the row
 * lock, so concurrent charges from many processes serialise on the account.
 */
export async function openPostgresStore(url: string, onIdleError?: PoolErrorLog): Promise<KyselyStore> {
  const db = postgresKysely(url, 10, onIdleError);
  // Kysely's migrator holds a PostgreSQL advisory lock, so processes starting together migrate once.
  await migrateToLatest(db, "postgres");
  return new KyselyStore(db);
}
