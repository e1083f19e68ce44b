import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "./schema.js";
import { openSqliteStore, sqliteKysely } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";

export type StoreLocation = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

/**
 * `FANGYAN_DATABASE_URL`: `postgres://…` (or `postgresql://…`) for PostgreSQL;
 * `sqlite:PATH`, a plain path, or nothing for the embedded SQLite file.
 */
export function parseStoreLocation(value: string | undefined, defaultFile: string, cwd = process.cwd()): StoreLocation {
  if (value === undefined || value === "") return { kind: "sqlite", file: defaultFile };
  if (/^postgres(ql)?:\/\//.test(value)) return { kind: "postgres", url: value };
  const file = value.startsWith("sqlite:") ? value.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "") : value;
  return { kind: "sqlite", file: path.resolve(cwd, file) };
}

// PostgreSQL's driver is loaded only when it is used: a single node on SQLite
// does not carry it (nor Redis's or S3's clients, see backends.ts).
export async function openStore(location: StoreLocation): Promise<Store> {
  if (location.kind === "sqlite") return openSqliteStore(location.file);
  const { openPostgresStore } = await import("./postgres/postgres-store.js");
  return openPostgresStore(location.url);
}

/** A bare Kysely on the database, for migrations and copies. */
export async function openKysely(location: StoreLocation, poolSize: number): Promise<Kysely<Database>> {
  if (location.kind === "sqlite") return sqliteKysely(location.file);
  const { postgresKysely } = await import("./postgres/postgres-store.js");
  return postgresKysely(location.url, poolSize);
}

/** For messages and logs: never print a password. */
export function describeStoreLocation(location: StoreLocation): string {
  if (location.kind === "sqlite") return `SQLite ${location.file}`;
  const url = new URL(location.url);
  if (url.password) url.password = "***";
  return `PostgreSQL ${url.toString()}`;
}
