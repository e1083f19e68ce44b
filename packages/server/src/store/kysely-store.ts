import type { CompiledQuery, Transaction } from "kysely";
import { type Kysely, type Selectable, sql } from "kysely";
import type { Database } from "./schema.js";
import type {
  Account,
  ApiKeyRecord,
  ChargeInput,
  ChargeResult,
  KeyOwner,
  LedgerEntry,
  Production,
  RechargeInput,
  ReversalInput,
  Status,
  Store,
} from "./store.js";

type AccountRow = Selectable<Database["accounts"]>;
type KeyRow = Selectable<Database["api_keys"]>;
type LedgerRow = Selectable<Database["ledger"]>;
type ProductionRow = Selectable<Database["productions"]>;
type KeyOwnerRow = AccountRow & { key_id: string; key_prefix: string; key_status: string; key_created_at: number };

// Drivers may hand back BIGINT as a string (pg) or bigint; money stays an exact integer either way.
function int(value: number | string | bigint): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${String(value)}`);
  return n;
}

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    status: row.status as Status,
    balanceMicro: int(row.balance_micro),
    totalRechargeMicro: int(row.total_recharge_micro),
    totalConsumedMicro: int(row.total_consumed_micro),
    rateLimitPerMinute: row.rate_limit_per_minute === null ? null : int(row.rate_limit_per_minute),
    createdAt: int(row.created_at),
  };
}

function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    prefix: row.prefix,
    status: row.status as Status,
    createdAt: int(row.created_at),
  };
}

function toEntry(row: LedgerRow): LedgerEntry {
  const optionalInt = (v: number | null) => (v === null ? null : int(v));
  return {
    id: int(row.id),
    accountId: row.account_id,
    kind: row.kind as LedgerEntry["kind"],
    amountMicro: int(row.amount_micro),
    balanceAfterMicro: int(row.balance_after_micro),
    keyId: row.key_id,
    rawChars: optionalInt(row.raw_chars),
    billableChars: optionalInt(row.billable_chars),
    audioId: row.audio_id,
    note: row.note,
    createdAt: int(row.created_at),
  };
}

function toProduction(row: ProductionRow): Production {
  return {
    audioId: row.audio_id,
    chargeEntryId: int(row.charge_entry_id),
    accountId: row.account_id,
    owner: row.owner,
    state: row.state === "reversed" ? "reversed" : "producing",
    heartbeatAt: int(row.heartbeat_at),
    createdAt: int(row.created_at),
  };
}

/** A unique index refused the row (SQLite and PostgreSQL say it differently). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

class AlreadyReversed extends Error {}

/** The ledger note that ties a reversal to its charge, and makes a second reversal detectable. */
const reversalNote = (chargeEntryId: number) => `reversal of ledger entry ${chargeEntryId}`;

/** The store's queries, written once for every Kysely dialect. */
export class KyselyStore implements Store {
  private keyOwnerQuery: CompiledQuery<KeyOwnerRow> | undefined;

  private readonly onClose: () => Promise<void>;
  private readonly readVersion: () => string | undefined;

  constructor(
    protected readonly db: Kysely<Database>,
    options: { onClose?: () => Promise<void>; version?: () => string | undefined } = {},
  ) {
    this.onClose = options.onClose ?? (() => db.destroy());
    this.readVersion = options.version ?? (() => undefined);
  }

  version(): string | undefined {
    return this.readVersion();
  }

  async createAccount(input: { id: string; name: string; createdAt: number }): Promise<Account> {
    const row = await this.db
      .insertInto("accounts")
      .values({
        id: input.id,
        name: input.name,
        status: "active",
        balance_micro: 0,
        total_recharge_micro: 0,
        total_consumed_micro: 0,
        rate_limit_per_minute: null,
        created_at: input.createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toAccount(row);
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom("accounts").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toAccount(row);
  }

  async listAccounts(): Promise<Account[]> {
    const rows = await this.db.selectFrom("accounts").selectAll().orderBy("created_at").orderBy("id").execute();
    return rows.map(toAccount);
  }

  async countAccounts(): Promise<number> {
    const row = await this.db
      .selectFrom("accounts")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    return int(row.n);
  }

  async setAccountStatus(id: string, status: Status): Promise<Account | undefined> {
    const row = await this.db.updateTable("accounts").set({ status }).where("id", "=", id).returningAll().executeTakeFirst();
    return row && toAccount(row);
  }

  async setRateLimit(id: string, perMinute: number | null): Promise<Account | undefined> {
    const row = await this.db
      .updateTable("accounts")
      .set({ rate_limit_per_minute: perMinute })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return row && toAccount(row);
  }

  async recharge(input: RechargeInput): Promise<LedgerEntry | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("accounts")
        .set({
          balance_micro: sql`balance_micro + ${input.amountMicro}`,
          total_recharge_micro: sql`total_recharge_micro + ${input.amountMicro}`,
        })
        .where("id", "=", input.accountId)
        .returning("balance_micro")
        .executeTakeFirst();
      if (!updated) return undefined;
      const entry = await trx
        .insertInto("ledger")
        .values({
          account_id: input.accountId,
          kind: "recharge",
          amount_micro: input.amountMicro,
          balance_after_micro: updated.balance_micro,
          key_id: null,
          raw_chars: null,
          billable_chars: null,
          audio_id: null,
          note: input.note,
          request_fingerprint: null,
          created_at: input.at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toEntry(entry);
    });
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    if (input.fingerprint !== undefined) {
      const earlier = await this.chargeOf(input.fingerprint);
      if (earlier) return { ok: false, reason: "duplicate", entry: earlier };
    }
    try {
      return await this.db.transaction().execute((trx) => this.chargeIn(trx, input));
    } catch (error) {
      // The same envelope charged at the same moment by another process: its charge stands alone.
      if (input.fingerprint !== undefined && isUniqueViolation(error)) {
        const earlier = await this.chargeOf(input.fingerprint);
        if (earlier) return { ok: false, reason: "duplicate", entry: earlier };
      }
      throw error;
    }
  }

  private async chargeIn(trx: Transaction<Database>, input: ChargeInput): Promise<ChargeResult> {
    // The WHERE clause is the balance check: no read-then-write race is possible.
    const updated = await trx
      .updateTable("accounts")
      .set({
        balance_micro: sql`balance_micro - ${input.costMicro}`,
        total_consumed_micro: sql`total_consumed_micro + ${input.costMicro}`,
      })
      .where("id", "=", input.accountId)
      .where("balance_micro", ">=", input.costMicro)
      .returning("balance_micro")
      .executeTakeFirst();
    if (!updated) {
      const current = await trx.selectFrom("accounts").select("balance_micro").where("id", "=", input.accountId).executeTakeFirst();
      return { ok: false, reason: "balance", balanceMicro: current ? int(current.balance_micro) : 0 };
    }
    const entry = await trx
      .insertInto("ledger")
      .values({
        account_id: input.accountId,
        kind: "charge",
        amount_micro: -input.costMicro,
        balance_after_micro: updated.balance_micro,
        key_id: input.keyId,
        raw_chars: input.rawChars,
        billable_chars: input.billableChars,
        audio_id: input.audioId,
        note: null,
        request_fingerprint: input.fingerprint ?? null,
        created_at: input.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (input.producedBy !== undefined) {
      await trx
        .insertInto("productions")
        .values({
          audio_id: input.audioId,
          charge_entry_id: entry.id,
          account_id: input.accountId,
          owner: input.producedBy,
          state: "producing",
          heartbeat_at: input.at,
          created_at: input.at,
        })
        .execute();
    }
    return { ok: true as const, entry: toEntry(entry) };
  }

  async chargeOf(fingerprint: string): Promise<LedgerEntry | undefined> {
    const row = await this.db
      .selectFrom("ledger")
      .selectAll()
      .where("request_fingerprint", "=", fingerprint)
      .where("kind", "=", "charge")
      .executeTakeFirst();
    return row && toEntry(row);
  }

  async reverse(input: ReversalInput): Promise<LedgerEntry | undefined> {
    try {
      return await this.db.transaction().execute((trx) => this.reverseIn(trx, input));
    } catch (error) {
      // Thrown only to roll the balance change back: a charge is given back once.
      if (error instanceof AlreadyReversed) return undefined;
      throw error;
    }
  }

  private async reverseIn(trx: Transaction<Database>, input: ReversalInput): Promise<LedgerEntry | undefined> {
    const charge = await trx
      .selectFrom("ledger")
      .selectAll()
      .where("id", "=", input.chargeEntryId)
      .where("kind", "=", "charge")
      .executeTakeFirst();
    if (!charge) return undefined;
    const amount = -int(charge.amount_micro);
    // The update comes first: it locks the account row (PostgreSQL), so the
    // check for an earlier reversal below sees any that committed meanwhile.
    const updated = await trx
      .updateTable("accounts")
      .set({
        balance_micro: sql`balance_micro + ${amount}`,
        total_consumed_micro: sql`total_consumed_micro - ${amount}`,
      })
      .where("id", "=", charge.account_id)
      .returning("balance_micro")
      .executeTakeFirst();
    if (!updated) return undefined;
    const earlier = await trx
      .selectFrom("ledger")
      .select("id")
      .where("account_id", "=", charge.account_id)
      .where("kind", "=", "reversal")
      .where("note", "=", reversalNote(input.chargeEntryId))
      .executeTakeFirst();
    if (earlier) throw new AlreadyReversed();
    const entry = await trx
      .insertInto("ledger")
      .values({
        account_id: charge.account_id,
        kind: "reversal",
        amount_micro: amount,
        balance_after_micro: updated.balance_micro,
        key_id: charge.key_id,
        raw_chars: charge.raw_chars,
        billable_chars: charge.billable_chars,
        audio_id: charge.audio_id,
        note: reversalNote(input.chargeEntryId),
        request_fingerprint: null,
        created_at: input.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toEntry(entry);
  }

  async finishProduction(audioId: string): Promise<void> {
    await this.db.deleteFrom("productions").where("audio_id", "=", audioId).where("state", "=", "producing").execute();
  }

  async reverseProduction(audioId: string, at: number): Promise<LedgerEntry | undefined> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        // Claiming the row first makes the reversal happen once, whoever else tries it meanwhile.
        const claimed = await trx
          .updateTable("productions")
          .set({ state: "reversed", heartbeat_at: at })
          .where("audio_id", "=", audioId)
          .where("state", "=", "producing")
          .returning("charge_entry_id")
          .executeTakeFirst();
        if (!claimed) return undefined;
        return this.reverseIn(trx, { chargeEntryId: int(claimed.charge_entry_id), at });
      });
    } catch (error) {
      if (error instanceof AlreadyReversed) return undefined;
      throw error;
    }
  }

  async heartbeatProductions(owner: string, at: number): Promise<void> {
    await this.db
      .updateTable("productions")
      .set({ heartbeat_at: at })
      .where("owner", "=", owner)
      .where("state", "=", "producing")
      .execute();
  }

  async unfinishedProductions(): Promise<Production[]> {
    const rows = await this.db.selectFrom("productions").selectAll().where("state", "=", "producing").orderBy("heartbeat_at").execute();
    return rows.map(toProduction);
  }

  async production(audioId: string): Promise<Production | undefined> {
    const row = await this.db.selectFrom("productions").selectAll().where("audio_id", "=", audioId).executeTakeFirst();
    return row && toProduction(row);
  }

  async insertKey(key: { id: string; accountId: string; lookupDigest: string; prefix: string; createdAt: number }): Promise<ApiKeyRecord> {
    const row = await this.db
      .insertInto("api_keys")
      .values({
        id: key.id,
        account_id: key.accountId,
        lookup_digest: key.lookupDigest,
        prefix: key.prefix,
        status: "active",
        created_at: key.createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toKey(row);
  }

  async findKeyOwner(lookupDigest: string): Promise<KeyOwner | undefined> {
    // Runs on every API request: built and compiled once, executed with the digest.
    this.keyOwnerQuery ??= this.db
      .selectFrom("api_keys as k")
      .innerJoin("accounts as a", "a.id", "k.account_id")
      .select([
        "k.id as key_id",
        "k.prefix as key_prefix",
        "k.status as key_status",
        "k.created_at as key_created_at",
        "a.id",
        "a.name",
        "a.status",
        "a.balance_micro",
        "a.total_recharge_micro",
        "a.total_consumed_micro",
        "a.rate_limit_per_minute",
        "a.created_at",
      ])
      .where("k.lookup_digest", "=", "")
      .compile();
    const result = await this.db.executeQuery<KeyOwnerRow>({ ...this.keyOwnerQuery, parameters: [lookupDigest] });
    const row = result.rows[0];
    if (!row) return undefined;
    return {
      key: toKey({
        id: row.key_id,
        account_id: row.id,
        lookup_digest: lookupDigest,
        prefix: row.key_prefix,
        status: row.key_status,
        created_at: row.key_created_at,
      }),
      account: toAccount(row),
    };
  }

  async getKey(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toKey(row);
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom("api_keys")
      .selectAll()
      .where("account_id", "=", accountId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return rows.map(toKey);
  }

  async findKeysByPrefix(prefix: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db.selectFrom("api_keys").selectAll().where("prefix", "=", prefix).execute();
    return rows.map(toKey);
  }

  async setKeyStatus(id: string, status: Status): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.updateTable("api_keys").set({ status }).where("id", "=", id).returningAll().executeTakeFirst();
    return row && toKey(row);
  }

  async ledger(accountId: string, page: { limit: number; beforeId?: number }): Promise<LedgerEntry[]> {
    let query = this.db.selectFrom("ledger").selectAll().where("account_id", "=", accountId);
    if (page.beforeId !== undefined) query = query.where("id", "<", page.beforeId);
    const rows = await query.orderBy("id", "desc").limit(page.limit).execute();
    return rows.map(toEntry);
  }

  close(): Promise<void> {
    return this.onClose();
  }
}
