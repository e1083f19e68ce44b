/**
 * Audio still being produced by this process, served from memory while the
 * rest of a long text is synthesized: what /audio streams (chunked) before
 * the finished file is in the store. A cluster serves an id in progress only
 * from the process producing it; other processes answer 404 until it is stored.
 */

type Listener = (event: { kind: "bytes"; bytes: Uint8Array } | { kind: "end" } | { kind: "failed" }) => void;

export class Production {
  readonly chunks: Uint8Array[] = [];
  private readonly listeners = new Set<Listener>();
  state: "open" | "done" | "failed" = "open";

  append(bytes: Uint8Array): void {
    if (this.state !== "open") return;
    this.chunks.push(bytes);
    for (const listener of this.listeners) listener({ kind: "bytes", bytes });
  }

  /** The whole file as produced so far. */
  bytes(): Uint8Array {
    return Buffer.concat(this.chunks);
  }

  end(state: "done" | "failed"): void {
    if (this.state !== "open") return;
    this.state = state;
    for (const listener of this.listeners) listener({ kind: state === "done" ? "end" : "failed" });
    this.listeners.clear();
  }

  /** Bytes appended from now on, then the end; returns the unsubscribe. */
  follow(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

// Failed ids are remembered so their URL keeps saying why; bounded, oldest forgotten first.
const rememberedFailures = 10_000;

/** Where the money of audio that failed after its charge is: given back, or still to be. */
export type FailureState = "reversed" | "reversal_pending";

export class AudioInProgress {
  private readonly open = new Map<string, Production>();
  private readonly failures = new Map<string, FailureState>();

  start(id: string): Production {
    const production = new Production();
    this.open.set(id, production);
    return production;
  }

  get(id: string): Production | undefined {
    return this.open.get(id);
  }

  /** The file is in the audio store now: later requests are served from there. */
  finish(id: string): void {
    this.open.get(id)?.end("done");
    this.open.delete(id);
  }

  /**
   * Ends the stream of every listener without its terminating chunk, and
   * remembers where the charge is: the URL then says so truthfully.
   */
  fail(id: string, state: FailureState): void {
    this.open.get(id)?.end("failed");
    this.open.delete(id);
    this.failures.delete(id);
    this.failures.set(id, state);
    if (this.failures.size > rememberedFailures) {
      const [oldest] = this.failures.keys();
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  /** Forgets an id that was never handed out (the charge was refused). */
  discard(id: string): void {
    this.open.get(id)?.end("failed");
    this.open.delete(id);
  }

  failure(id: string): FailureState | undefined {
    return this.failures.get(id);
  }

  get size(): number {
    return this.open.size;
  }
}
