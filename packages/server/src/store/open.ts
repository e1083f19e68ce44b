import path from "node:path";
import { openPostgresStore } from "./postgres/postgres-store.js";
import { openSqliteStore } from "./sqlite/sqlite-store.js";
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

export function openStore(location: StoreLocation): Promise<Store> {
  return location.kind === "postgres" ? openPostgresStore(location.url) : openSqliteStore(location.file);
}

/** For messages and logs: never print a password. */
export function describeStoreLocation(location: StoreLocation): string {
  if (location.kind === "sqlite") return `SQLite ${location.file}`;
  const url = new URL(location.url);
  if (url.password) url.password = "***";
  return `PostgreSQL ${url.toString()}`;
}
