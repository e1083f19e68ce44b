import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { KyselyStore } from "../kysely-store.js";
import { migrationProvider } from "../migrations/index.js";
import type { Database } from "../schema.js";

/**
 * The embedded default: one SQLite file in WAL mode, safe to share with the
 * admin command running in another process while the server runs.
 */
export async function openSqliteStore(file: string): Promise<KyselyStore> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  // Another process (the admin command) may hold the write lock for a moment.
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db);
  return new KyselyStore(db);
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider("sqlite") });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
