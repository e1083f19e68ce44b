/**
 * Admission to a bounded pool: at most `capacity` tasks in flight (running or
 * queued in the pool); a caller beyond that waits, first come first served,
 * for up to `waitMs` before it is turned away. Waiting briefly rides out a
 * burst that would otherwise fail as busy; the limit keeps a caller from
 * waiting longer than a client would.
 */
export class Admission {
  private admitted = 0;
  private readonly waiting: Array<{ admit: () => void; timer: NodeJS.Timeout }> = [];

  constructor(
    private readonly capacity: number,
    private readonly waitMs: number,
  ) {}

  /** Tasks admitted and not yet released, plus those waiting for admission. */
  get inFlight(): number {
    return this.admitted + this.waiting.length;
  }

  /** Resolves true once admitted (call release() when done), false when the wait ran out. */
  acquire(): Promise<boolean> {
    if (this.admitted < this.capacity) {
      this.admitted++;
      return Promise.resolve(true);
    }
    if (this.waitMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const entry = {
        admit: () => resolve(true),
        timer: setTimeout(() => {
          const index = this.waiting.indexOf(entry);
          if (index >= 0) this.waiting.splice(index, 1);
          resolve(false);
        }, this.waitMs),
      };
      this.waiting.push(entry);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) {
      // The slot passes straight to the next caller, so inFlight stays the same.
      clearTimeout(next.timer);
      next.admit();
      return;
    }
    this.admitted--;
  }
}
