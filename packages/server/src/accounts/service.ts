import { parseYuanAmount } from "@fangyan/protocol";
import type { Account, ApiKeyRecord, KeyOwner, LedgerEntry, Store } from "../store/store.js";
import { generateApiKey, keyDisplayPrefix, keyLookupDigest, looksLikeApiKey, newId } from "./keys.js";

/** An operator's request that cannot be done; `kind` picks the admin HTTP status. */
export class AccountError extends Error {
  constructor(
    readonly kind: "not_found" | "invalid" | "conflict",
    message: string,
  ) {
    super(message);
    this.name = "AccountError";
  }
}

export interface IssuedKey {
  key: ApiKeyRecord;
  /** Shown once, at issue; the server keeps only its lookup digest. */
  apiKey: string;
}

export const MAX_NAME_LENGTH = 100;
export const MAX_LEDGER_PAGE = 500;

/**
 * Everything an operator or the API does to accounts and keys, over any store.
 * The admin command line and the admin HTTP API both call this one service.
 */
export class AccountService {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** The owner of an active key on an active account, or undefined. */
  async authenticate(apiKey: string): Promise<KeyOwner | undefined> {
    if (!looksLikeApiKey(apiKey)) return undefined;
    const owner = await this.store.findKeyOwner(keyLookupDigest(apiKey));
    if (owner?.key.status !== "active" || owner.account.status !== "active") return undefined;
    return owner;
  }

  async createAccount(input: { name: string; rechargeYuan?: string | number }): Promise<{ account: Account } & IssuedKey> {
    const name = input.name.trim();
    if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
      throw new AccountError("invalid", `Account name must be 1-${MAX_NAME_LENGTH} characters`);
    }
    const rechargeMicro = input.rechargeYuan === undefined ? undefined : this.parseAmount(input.rechargeYuan);
    const account = await this.store.createAccount({ id: newId("acct"), name, createdAt: this.now() });
    const issued = await this.issueKey(account.id);
    if (rechargeMicro !== undefined) {
      await this.store.recharge({ accountId: account.id, amountMicro: rechargeMicro, note: "initial recharge", at: this.now() });
    }
    return { account: await this.getAccount(account.id), ...issued };
  }

  listAccounts(): Promise<Account[]> {
    return this.store.listAccounts();
  }

  countAccounts(): Promise<number> {
    return this.store.countAccounts();
  }

  async getAccount(id: string): Promise<Account> {
    const account = await this.store.getAccount(id);
    if (!account) throw new AccountError("not_found", `No account ${id}`);
    return account;
  }

  async recharge(accountId: string, yuan: string | number, note: string | null = null): Promise<{ account: Account; entry: LedgerEntry }> {
    const amountMicro = this.parseAmount(yuan);
    const entry = await this.store.recharge({ accountId, amountMicro, note, at: this.now() });
    if (!entry) throw new AccountError("not_found", `No account ${accountId}`);
    return { account: await this.getAccount(accountId), entry };
  }

  async setAccountStatus(id: string, status: Account["status"]): Promise<Account> {
    const account = await this.store.setAccountStatus(id, status);
    if (!account) throw new AccountError("not_found", `No account ${id}`);
    return account;
  }

  async setRateLimit(id: string, perMinute: number | null): Promise<Account> {
    if (perMinute !== null && (!Number.isSafeInteger(perMinute) || perMinute < 1 || perMinute > 1_000_000)) {
      throw new AccountError("invalid", "Rate limit must be a whole number of requests per minute, 1-1000000");
    }
    const account = await this.store.setRateLimit(id, perMinute);
    if (!account) throw new AccountError("not_found", `No account ${id}`);
    return account;
  }

  async issueKey(accountId: string): Promise<IssuedKey> {
    await this.getAccount(accountId);
    const apiKey = generateApiKey();
    const key = await this.store.insertKey({
      id: newId("key"),
      accountId,
      lookupDigest: keyLookupDigest(apiKey),
      prefix: keyDisplayPrefix(apiKey),
      createdAt: this.now(),
    });
    return { key, apiKey };
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    await this.getAccount(accountId);
    return this.store.listKeys(accountId);
  }

  /** Accepts the whole key, its key id (`key_…`) or its display prefix (`fy_AbCd1234`). */
  async setKeyStatus(keyOrPrefix: string, status: ApiKeyRecord["status"]): Promise<ApiKeyRecord> {
    const key = await this.resolveKey(keyOrPrefix.trim());
    const updated = await this.store.setKeyStatus(key.id, status);
    if (!updated) throw new AccountError("not_found", "No such key");
    return updated;
  }

  async ledger(accountId: string, page: { limit?: number; beforeId?: number } = {}): Promise<LedgerEntry[]> {
    const limit = page.limit ?? 50;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LEDGER_PAGE) {
      throw new AccountError("invalid", `Ledger page size must be 1-${MAX_LEDGER_PAGE}`);
    }
    await this.getAccount(accountId);
    return this.store.ledger(accountId, { limit, ...(page.beforeId === undefined ? {} : { beforeId: page.beforeId }) });
  }

  private async resolveKey(ref: string): Promise<ApiKeyRecord> {
    if (looksLikeApiKey(ref)) {
      const owner = await this.store.findKeyOwner(keyLookupDigest(ref));
      if (owner) return owner.key;
    } else if (ref.startsWith("key_")) {
      const key = await this.store.getKey(ref);
      if (key) return key;
    } else {
      const matches = await this.store.findKeysByPrefix(ref);
      if (matches.length > 1) {
        throw new AccountError("conflict", `Prefix ${ref} matches ${matches.length} keys; use the key id instead`);
      }
      if (matches[0]) return matches[0];
    }
    // Never echo what was given: it may be a whole secret key.
    throw new AccountError("not_found", "No such key");
  }

  private parseAmount(yuan: string | number): number {
    const micro = parseYuanAmount(yuan);
    if (micro === undefined) {
      throw new AccountError("invalid", "Amount must be positive yuan with at most 2 decimals, e.g. 10 or 12.50");
    }
    return micro;
  }
}
