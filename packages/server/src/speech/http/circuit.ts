/**
 * A circuit breaker for one endpoint: after `failures` failures in a row it
 * opens, and requests fail at once for a back-off period instead of each
 * waiting for a dead server's timeout; then one trial request goes through.
 * A success closes it; a failed trial opens it again for twice as long, up
 * to `maxBackoffMs`.
 */

export interface CircuitOptions {
  failures: number;
  firstBackoffMs: number;
  maxBackoffMs: number;
  now: () => number;
}

export const defaultCircuit: Omit<CircuitOptions, "now"> = { failures: 3, firstBackoffMs: 5_000, maxBackoffMs: 60_000 };

export class Circuit {
  private failuresInRow = 0;
  private openUntil: number | undefined;
  private backoffMs: number;
  private trialRunning = false;

  constructor(private readonly options: CircuitOptions) {
    this.backoffMs = options.firstBackoffMs;
  }

  /** Whether a request may go out now; a true while open means this request is the trial. */
  admit(): boolean {
    if (this.openUntil === undefined) return true;
    if (this.trialRunning || this.options.now() < this.openUntil) return false;
    this.trialRunning = true;
    return true;
  }

  succeeded(): void {
    this.failuresInRow = 0;
    this.openUntil = undefined;
    this.trialRunning = false;
    this.backoffMs = this.options.firstBackoffMs;
  }

  failed(): void {
    this.failuresInRow++;
    if (this.trialRunning) {
      this.trialRunning = false;
      this.backoffMs = Math.min(this.backoffMs * 2, this.options.maxBackoffMs);
      this.openUntil = this.options.now() + this.backoffMs;
    } else if (this.openUntil === undefined && this.failuresInRow >= this.options.failures) {
      this.openUntil = this.options.now() + this.backoffMs;
    }
  }

  /** Undefined while closed; else when the next trial may go out (ms since the epoch). */
  get retryAt(): number | undefined {
    return this.openUntil;
  }
}
