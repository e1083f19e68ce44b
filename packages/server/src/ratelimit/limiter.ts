/** A sliding-window request limiter; one implementation per backend (memory, Redis). */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window. */
  resetSeconds: number;
}

export interface RateLimiter {
  /**
   * Counts one request for `subject` if it fits in `limit` per `windowMs`.
   * A refused request is not counted, so a client that waits is let back in.
   */
  hit(subject: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export const RATE_WINDOW_MS = 60_000;
