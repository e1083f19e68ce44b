import { type Kysely, Migrator } from "kysely";
import { migrationProvider, type SqlDialect } from "./migrations/index.js";
import type { Database } from "./schema.js";

/** Brings a database to the latest schema; run at every start and by `fangyan migrate`. */
export async function migrateToLatest(db: Kysely<Database>, dialect: SqlDialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
