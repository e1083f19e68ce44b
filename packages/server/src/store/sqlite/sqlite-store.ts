import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, type SqliteDatabase, SqliteDialect } from "kysely";
import { KyselyStore } from "../kysely-store.js";
import { migrateToLatest } from "../migrate.js";
import type { Database } from "../schema.js";

export function sqliteKysely(file: string): Kysely<Database> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  // Another process (the admin command) may hold the write lock for a moment.
  sqlite.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/**
 * Kysely prepares every query anew; the server runs the same few statements
 * on every request, so each SQL text is prepared once and reused.
 */
function withStatementCache(sqlite: SQLite.Database, size = 200): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= size) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

/**
 * The embedded default: one SQLite file in WAL mode, safe to share with the
 * admin command running in another process while the server runs.
 */
export async function openSqliteStore(file: string): Promise<KyselyStore> {
  const db = sqliteKysely(file);
  await migrateToLatest(db, "sqlite");
  return new KyselyStore(db);
}
