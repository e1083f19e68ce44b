/**
 * The account store: accounts, API keys and the ledger. One interface, one
 * implementation per database (SQLite embedded, PostgreSQL for clusters).
 * Money is integer micro-yuan; times are milliseconds since the epoch.
 */

export type Status = "active" | "disabled";
export type LedgerKind = "recharge" | "charge" | "reversal";

export interface Account {
  id: string;
  name: string;
  status: Status;
  balanceMicro: number;
  totalRechargeMicro: number;
  totalConsumedMicro: number;
  /** Per-account override of the global rate limit; null uses the default. */
  rateLimitPerMinute: number | null;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** First characters of the key, for display only. */
  prefix: string;
  status: Status;
  createdAt: number;
}

export interface LedgerEntry {
  id: number;
  accountId: string;
  kind: LedgerKind;
  /** Signed: a recharge adds, a charge subtracts, a reversal gives a charge back. */
  amountMicro: number;
  balanceAfterMicro: number;
  keyId: string | null;
  rawChars: number | null;
  billableChars: number | null;
  audioId: string | null;
  note: string | null;
  createdAt: number;
}

export interface KeyOwner {
  key: ApiKeyRecord;
  account: Account;
}

export interface ChargeInput {
  accountId: string;
  keyId: string;
  costMicro: number;
  rawChars: number;
  billableChars: number;
  audioId: string;
  at: number;
  /**
   * The request this charge answers (RequestFingerprint): at most one charge
   * ever carries a given fingerprint, so a replayed envelope is never charged twice.
   */
  fingerprint?: string;
  /**
   * The audio is still being produced by `owner`: a production row is written
   * in the same transaction, and the charge is reversed unless
   * finishProduction() removes it.
   */
  producedBy?: string;
}

export type ChargeResult =
  | { ok: true; entry: LedgerEntry }
  | { ok: false; reason: "balance"; balanceMicro: number }
  /** The fingerprint was charged before: that first charge, and nothing charged now. */
  | { ok: false; reason: "duplicate"; entry: LedgerEntry };

/** Audio charged for while still being produced (a streamed long text). */
export interface Production {
  audioId: string;
  chargeEntryId: number;
  accountId: string;
  owner: string;
  /** "producing" until finished (the row goes) or reversed. */
  state: "producing" | "reversed";
  heartbeatAt: number;
  createdAt: number;
}

export interface RechargeInput {
  accountId: string;
  amountMicro: number;
  note: string | null;
  at: number;
}

export interface ReversalInput {
  /** The ledger id of the charge to give back, whole. */
  chargeEntryId: number;
  at: number;
}

export interface Store {
  createAccount(account: { id: string; name: string; createdAt: number }): Promise<Account>;
  getAccount(id: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  countAccounts(): Promise<number>;
  setAccountStatus(id: string, status: Status): Promise<Account | undefined>;
  setRateLimit(id: string, perMinute: number | null): Promise<Account | undefined>;

  /** Adds to balance and total recharge, with its ledger row, in one transaction. */
  recharge(input: RechargeInput): Promise<LedgerEntry | undefined>;
  /**
   * One conditional update that cannot take the balance below zero, plus its
   * ledger row, in one transaction. `ok: false` when the balance is short.
   */
  charge(input: ChargeInput): Promise<ChargeResult>;
  /**
   * Gives a charge back whole when its audio could not be finished: the
   * balance rises by its amount, total consumed falls, and a "reversal"
   * ledger row says so, in one transaction. A charge is given back at most
   * once; undefined when it was already, or is not a charge.
   */
  reverse(input: ReversalInput): Promise<LedgerEntry | undefined>;
  /** The charge that answered this request fingerprint, if any. */
  chargeOf(fingerprint: string): Promise<LedgerEntry | undefined>;

  /** The audio was stored whole: its charge stands, and its production row goes. */
  finishProduction(audioId: string): Promise<void>;
  /**
   * Gives back the charge of audio that was never finished, with its reversal
   * row, and marks the production reversed, in one transaction; at most once
   * (undefined when it was finished or reversed already).
   */
  reverseProduction(audioId: string, at: number): Promise<LedgerEntry | undefined>;
  /** The owner is alive: its productions' heartbeat moves to `at`. */
  heartbeatProductions(owner: string, at: number): Promise<void>;
  /** Productions still "producing", oldest heartbeat first. */
  unfinishedProductions(): Promise<Production[]>;
  production(audioId: string): Promise<Production | undefined>;

  insertKey(key: { id: string; accountId: string; lookupDigest: string; prefix: string; createdAt: number }): Promise<ApiKeyRecord>;
  findKeyOwner(lookupDigest: string): Promise<KeyOwner | undefined>;
  getKey(id: string): Promise<ApiKeyRecord | undefined>;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
  findKeysByPrefix(prefix: string): Promise<ApiKeyRecord[]>;
  setKeyStatus(id: string, status: Status): Promise<ApiKeyRecord | undefined>;

  /**
   * A token that changes with every commit to the store, by any connection in
   * any process; undefined when this store cannot tell. What was read after a
   * token was taken is still current while the token is unchanged (SQLite: the
   * WAL-index header). PostgreSQL says undefined, so nothing is kept.
   */
  version(): string | undefined;

  /** Newest first; `beforeId` pages back. */
  ledger(accountId: string, page: { limit: number; beforeId?: number }): Promise<LedgerEntry[]>;

  close(): Promise<void>;
}
