/** The answer given to an accepted envelope, kept so that a replay gets it again. */
export interface StoredAnswer {
  status: number;
  body: string;
}

/**
 * Remembers, per envelope fingerprint, the first answer until the envelope
 * leaves its validity window. One implementation per backend (memory, Redis).
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
