import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, type SqliteDatabase, SqliteDialect, type SqliteStatement } from "kysely";
import { KyselyStore } from "../kysely-store.js";
import { migrateToLatest } from "../migrate.js";
import type { Database } from "../schema.js";
import { WalVersion } from "./wal-version.js";

export function sqliteKysely(file: string, afterStatement: () => void = () => {}): Kysely<Database> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  // Another process (the admin command) may hold the write lock for a moment.
  sqlite.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, afterStatement) }) });
}

/**
 * Kysely prepares every query anew; the server runs the same few statements
 * on every request, so each SQL text is prepared once and reused. Every
 * statement run through it calls `afterStatement` (WalVersion.forget).
 */
function withStatementCache(sqlite: SQLite.Database, afterStatement: () => void, size = 200): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(sql: string) {
      if (/^\s*rollback\s*$/i.test(sql)) return rollbackIfOpen(sqlite);
      let statement = statements.get(sql);
      if (!statement) {
        statement = notifying(sqlite.prepare(sql), afterStatement);
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
 * SQLite ends a transaction itself when a statement fails for want of space
 * or memory (SQLITE_FULL, SQLITE_IOERR, ...). Kysely then sends ROLLBACK
 * anyway, and its "cannot rollback - no transaction is active" would replace
 * the real cause in the error that reaches the log. A rollback with no
 * transaction open is therefore skipped.
 */
function rollbackIfOpen(sqlite: SQLite.Database): SqliteStatement {
  const rollback = sqlite.prepare("rollback");
  const run = () => (sqlite.inTransaction ? rollback.run() : { changes: 0, lastInsertRowid: 0 });
  return {
    reader: false,
    all: () => {
      run();
      return [];
    },
    run,
    iterate: () => {
      run();
      return [][Symbol.iterator]();
    },
  };
}

/** The three calls Kysely makes of a statement, each followed by `after`. */
function notifying(statement: SQLite.Statement, after: () => void): SqliteStatement {
  return {
    reader: statement.reader,
    all(parameters: readonly unknown[]) {
      try {
        return statement.all(parameters);
      } finally {
        after();
      }
    },
    run(parameters: readonly unknown[]) {
      try {
        return statement.run(parameters);
      } finally {
        after();
      }
    },
    *iterate(parameters: readonly unknown[]) {
      try {
        yield* statement.iterate(parameters);
      } finally {
        after();
      }
    },
  };
}

/**
 * The embedded default: one SQLite file in WAL mode, safe to share with the
 * admin command running in another process while the server runs.
 */
export async function openSqliteStore(file: string, options: { versionReuseMs?: number } = {}): Promise<KyselyStore> {
  let wal: WalVersion | undefined;
  const db = sqliteKysely(file, () => wal?.forget());
  await migrateToLatest(db, "sqlite");
  // Opened after the migrations, when WAL mode has created and initialised the shared memory.
  wal = WalVersion.open(file, options.versionReuseMs === undefined ? {} : { reuseMs: options.versionReuseMs });
  return new KyselyStore(db, {
    version: () => wal?.read(),
    onClose: async () => {
      wal?.close();
      await db.destroy();
    },
  });
}
