import { type Kysely, type Migration, type MigrationProvider, sql } from "kysely";

export type SqlDialect = "sqlite" | "postgres";

/**
 * Migrations are code, not files on disk, so that the compiled server carries
 * them and both dialects run the same ones. Append only; never edit a shipped one.
 */
function migrations(dialect: SqlDialect): Record<string, Migration> {
  return {
    "0001_accounts_keys_ledger": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("accounts")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
          .addColumn("balance_micro", "bigint", (c) => c.notNull().defaultTo(0))
          .addColumn("total_recharge_micro", "bigint", (c) => c.notNull().defaultTo(0))
          .addColumn("total_consumed_micro", "bigint", (c) => c.notNull().defaultTo(0))
          .addColumn("rate_limit_per_minute", "integer")
          .addColumn("created_at", "bigint", (c) => c.notNull())
          .addCheckConstraint("accounts_balance_not_negative", sql`balance_micro >= 0`)
          .execute();
        await db.schema
          .createTable("api_keys")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
          .addColumn("lookup_digest", "text", (c) => c.notNull().unique())
          .addColumn("prefix", "text", (c) => c.notNull())
          .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
          .addColumn("created_at", "bigint", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("api_keys_account").on("api_keys").column("account_id").execute();
        await db.schema.createIndex("api_keys_prefix").on("api_keys").column("prefix").execute();
        await db.schema
          .createTable("ledger")
          .addColumn("id", dialect === "postgres" ? "bigserial" : "integer", (c) =>
            dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("amount_micro", "bigint", (c) => c.notNull())
          .addColumn("balance_after_micro", "bigint", (c) => c.notNull())
          .addColumn("key_id", "text")
          .addColumn("raw_chars", "integer")
          .addColumn("billable_chars", "integer")
          .addColumn("audio_id", "text")
          .addColumn("note", "text")
          .addColumn("created_at", "bigint", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("ledger_account_id").on("ledger").columns(["account_id", "id"]).execute();
      },
    },
    // A charge remembers the envelope it answered, so that no envelope is ever charged twice
    // (whatever timestamp a replay carries); audio still being produced after its charge is
    // recorded with the charge, so that a process that dies mid-production leaves a row that
    // any process reverses.
    "0002_request_fingerprints_and_productions": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("ledger").addColumn("request_fingerprint", "text").execute();
        await db.schema.createIndex("ledger_request_fingerprint").unique().on("ledger").column("request_fingerprint").execute();
        await db.schema
          .createTable("productions")
          .addColumn("audio_id", "text", (c) => c.primaryKey())
          .addColumn("charge_entry_id", "bigint", (c) => c.notNull().references("ledger.id"))
          .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
          .addColumn("owner", "text", (c) => c.notNull())
          .addColumn("state", "text", (c) => c.notNull())
          .addColumn("heartbeat_at", "bigint", (c) => c.notNull())
          .addColumn("created_at", "bigint", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("productions_state_heartbeat").on("productions").columns(["state", "heartbeat_at"]).execute();
      },
    },
  };
}

export function migrationProvider(dialect: SqlDialect): MigrationProvider {
  return {
    async getMigrations() {
      return migrations(dialect);
    },
  };
}
