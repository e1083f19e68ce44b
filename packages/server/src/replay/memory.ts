import type { ReplayCache, StoredAnswer } from "./cache.js";

interface Entry {
  expiresAt: number;
  answer: Promise<StoredAnswer>;
}

/** Process-local replay cache; a cluster shares the Redis one instead. */
export class MemoryReplayCache implements ReplayCache {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 30_000);
    this.sweeper.unref();
  }

  once(fingerprint: string, expiresAt: number, produce: () => Promise<StoredAnswer>): Promise<StoredAnswer> {
    const existing = this.entries.get(fingerprint);
    if (existing && existing.expiresAt > this.now()) return existing.answer;
    // The promise is stored before it settles: two identical envelopes arriving
    // together share one run, so one charge.
    const answer = produce();
    this.entries.set(fingerprint, { expiresAt, answer });
    answer.catch(() => this.entries.delete(fingerprint));
    return answer;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [fingerprint, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(fingerprint);
    }
  }
}
