import type { RateLimitDecision, RateLimiter } from "./limiter.js";

/**
 * Sliding log in process memory: exact, and right for one server process.
 * Several processes need the Redis limiter so that they share one count.
 */
interface Log {
  /** Request times, oldest first; entries before `head` have left the window. */
  times: number[];
  head: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, Log>();
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
    let log = this.logs.get(subject);
    if (!log) {
      log = { times: [], head: 0 };
      this.logs.set(subject, log);
    }
    // Advancing a head index keeps a hit O(1) even with a limit of thousands a minute.
    while (log.head < log.times.length && (log.times[log.head] ?? 0) <= now - windowMs) log.head++;
    if (log.head > 1024 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
    const count = log.times.length - log.head;
    const allowed = count < limit;
    if (allowed) log.times.push(now);
    const used = allowed ? count + 1 : count;
    const oldest = log.times[log.head] ?? now;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - used),
      resetSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
    };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.logs.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [subject, log] of this.logs) {
      const newest = log.times[log.times.length - 1];
      if (newest === undefined || newest <= now - 3_600_000) this.logs.delete(subject);
    }
  }
}
