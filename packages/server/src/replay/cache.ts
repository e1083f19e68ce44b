/** The answer given to an accepted envelope, kept so that a replay gets it again. */
export interface StoredAnswer {
  status: number;
  body: string;
}

/**
 * An answer to send that must not be remembered: a transient failure (busy,
 * storage or an engine unavailable), which re-sending the same envelope may
 * get past. `produce` throws it, so the cache forgets the fingerprint.
 */
export class Unremembered extends Error {
  constructor(readonly answer: StoredAnswer) {
    super("a transient answer, not remembered");
    this.name = "Unremembered";
  }
}

/**
 * Remembers, per envelope fingerprint, the first answer for a while after it
 * was given (the charged ones are durable in the ledger besides), so that a
 * replay, or the same envelope arriving twice at once, runs once. One
 * implementation per backend (memory, Redis).
 */
export interface ReplayCache {
  /**
   * Runs `produce` at most once per fingerprint while the entry lives; a
   * concurrent or later caller with the same fingerprint gets the same answer.
   * If `produce` throws, nothing is remembered.
   */
  once(fingerprint: string, expiresAt: number, produce: () => Promise<StoredAnswer>): Promise<StoredAnswer>;
  close(): Promise<void>;
}
