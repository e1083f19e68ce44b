import { deriveEnvelopeKeySync, type NodeEnvelopeKey } from "@fangyan/protocol/node";
import type { AccountService } from "../accounts/service.js";
import type { KeyOwner } from "../store/store.js";

export interface Identified {
  /** SHA-256 of the presented key: what the request was sealed with and the answer will be. */
  envelopeKey: NodeEnvelopeKey;
  /** The key's record and its account, when the key is active on an active account. */
  owner: KeyOwner | undefined;
}

interface Entry extends Identified {
  owner: KeyOwner;
  /** The store's version taken before the owner was read. */
  version: string;
  storedAt: number;
}

export interface CallersOptions {
  /** The store's commit token (Store.version); undefined means nothing may be kept. */
  version: () => string | undefined;
  maxEntries?: number;
  /** How long a presented key is kept in memory after it was last read from the store. */
  ttlMs?: number;
  now?: () => number;
}

/**
 * Who a presented API key is, with what was derived from it and read for it
 * (the envelope key, the key's record, the account and its balance) kept
 * between requests, so that a client's every request does not hash its key
 * twice and read the database again.
 *
 * A kept answer is used only while the store's version (the SQLite WAL-index
 * header) is the one taken before it was read: any commit, a charge, a
 * recharge, a key disabled by the admin command in another process, changes
 * the version, and the next request reads the store again. This process's
 * own commits show on its very next request; another process's on every
 * request handled from 0.5 ms after it (WalVersion). A store that cannot tell
 * (PostgreSQL) gives no version, and every request reads it.
 *
 * Only keys that found an active owner are kept, at most `maxEntries` of
 * them and each for at most `ttlMs` after it was read; they live in this
 * process's memory only and are never logged or written.
 */
export class Callers {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly accounts: AccountService,
    private readonly options: CallersOptions,
  ) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  async identify(presented: string): Promise<Identified> {
    const version = this.options.version();
    const now = this.now();
    const kept = this.entries.get(presented);
    if (kept && version !== undefined && kept.version === version && now - kept.storedAt < this.ttlMs) return kept;

    const envelopeKey = kept?.envelopeKey ?? deriveEnvelopeKeySync(presented);
    const owner = await this.accounts.authenticate(presented);
    this.entries.delete(presented);
    if (owner && version !== undefined) this.keep(presented, { envelopeKey, owner: freeze(owner), version, storedAt: now });
    return { envelopeKey, owner };
  }

  /** How many keys are kept now (for tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  private keep(presented: string, entry: Entry): void {
    // Map order is the order of storing, which is also the order of expiry.
    for (const [key, oldest] of this.entries) {
      if (this.entries.size < this.maxEntries && entry.storedAt - oldest.storedAt < this.ttlMs) break;
      this.entries.delete(key);
    }
    this.entries.set(presented, entry);
  }
}

/** A kept owner is shared by concurrent requests: none of them may change it. */
function freeze(owner: KeyOwner): KeyOwner {
  Object.freeze(owner.key);
  Object.freeze(owner.account);
  return Object.freeze(owner);
}
