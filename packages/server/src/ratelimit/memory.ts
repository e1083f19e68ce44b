import type { RateLimitDecision, RateLimiter } from "./limiter.js";

/**
 * Sliding log in process memory: exact, and right for one server process.
 * Several processes need the Redis limiter so that they share one count.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, number[]>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly now: () => number = Date.now,
    sweepEveryMs = 60_000,
  ) {
    // Forget subjects that have been quiet for a whole window, so memory stays bounded.
    this.sweeper = setInterval(() => this.sweep(), sweepEveryMs);
    this.sweeper.unref();
  }

  async hit(subject: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = this.now();
    const log = this.prune(subject, now, windowMs);
    const allowed = log.length < limit;
    if (allowed) log.push(now);
    if (log.length > 0) this.logs.set(subject, log);
    const oldest = log[0] ?? now;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - log.length),
      resetSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
    };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.logs.clear();
  }

  private prune(subject: string, now: number, windowMs: number): number[] {
    const log = this.logs.get(subject) ?? [];
    let drop = 0;
    while (drop < log.length && (log[drop] ?? 0) <= now - windowMs) drop++;
    return drop > 0 ? log.slice(drop) : log;
  }

  private sweep(): void {
    const now = this.now();
    for (const [subject, log] of this.logs) {
      const newest = log[log.length - 1];
      if (newest === undefined || newest <= now - 3_600_000) this.logs.delete(subject);
    }
  }
}
