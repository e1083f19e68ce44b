/**
 * Charges for audio still being produced (streamed long texts), kept honest
 * through crashes and storage faults.
 *
 * A streamed text is charged once its first part is ready, and the charge is
 * written with a production row naming the process producing it. The row goes
 * when the whole file is stored; if production fails, the charge is reversed
 * and the row marked so, in one transaction. The row is the outbox: whatever
 * happens to the process, a charge whose audio never completed is reversed
 * once, by ledger row:
 *
 * - the producing process retries a reversal that could not be written (a full
 *   or read-only disk) until it is;
 * - a process that dies (kill -9, power loss) stops its heartbeat; any process
 *   sharing the store (this one after a restart, or another of a cluster)
 *   takes over its rows once the lease has run out, or at once when the owner
 *   was a process of this host that no longer exists. Audio found complete in
 *   the audio store keeps its charge; anything else is reversed.
 */

import { randomBytes } from "node:crypto";
import os from "node:os";
import type { FastifyBaseLogger } from "fastify";
import { shortAudioId } from "../audio/ids.js";
import type { AudioInProgress, FailureState } from "../audio/in-progress.js";
import type { AudioStore } from "../audio/store.js";
import type { Production, Store } from "../store/store.js";

export interface ProductionKeeperOptions {
  store: Store;
  audio: AudioStore;
  log: FastifyBaseLogger;
  /** A production whose owner has not beaten for this long is taken over. */
  leaseMs: number;
  /** Where this process's failed productions are remembered; told when their money has moved, so their URL says so. */
  inProgress?: AudioInProgress;
  now?: () => number;
}

const hostname = os.hostname();

/** This process's name in production rows: host, pid, and a random part (pids are reused). */
export function newOwnerId(): string {
  return `${hostname}/${process.pid}/${randomBytes(6).toString("hex")}`;
}

/** A process of this host that no longer runs: its productions need no lease to run out. */
function deadOnThisHost(owner: string): boolean {
  const [host, pidText] = owner.split("/");
  const pid = Number(pidText);
  if (host !== hostname || !Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export class ProductionKeeper {
  readonly owner = newOwnerId();
  private readonly now: () => number;
  private active = 0;
  /** Failed productions of this process whose reversal could not be written yet. */
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(private readonly options: ProductionKeeperOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Heartbeats, retries and take-overs every sixth of the lease. */
  start(): void {
    this.timer ??= setInterval(() => void this.tick(), Math.max(200, Math.floor(this.options.leaseMs / 6)));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** A production of this process begins (its row was written with its charge). */
  begin(): void {
    this.active++;
  }

  /** The file is stored whole: the charge stands. */
  async finished(audioId: string): Promise<void> {
    this.active--;
    try {
      await this.options.store.finishProduction(audioId);
    } catch (error) {
      // The row stays; whoever takes it over finds the audio stored and keeps the charge.
      this.options.log.error({ err: error, audio: shortAudioId(audioId) }, "a finished production could not be recorded");
    }
  }

  /** Production failed: give the charge back now, or keep trying until it can be written. */
  async failed(audioId: string): Promise<void> {
    this.active--;
    await this.reverse(audioId);
  }

  /** One round: heartbeat, pending reversals, productions of processes that are gone. */
  tick(): Promise<void> {
    this.ticking ??= this.round().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  /** What became of an id that is not stored: a reversal done, one to come, or nothing known. */
  async outcome(audioId: string): Promise<FailureState | undefined> {
    const production = await this.options.store.production(audioId).catch(() => undefined);
    if (!production) return undefined;
    if (production.state === "reversed") return "reversed";
    return this.isOrphan(production) || this.pending.has(audioId) ? "reversal_pending" : undefined;
  }

  private async round(): Promise<void> {
    const { store, log } = this.options;
    try {
      if (this.active > 0) await store.heartbeatProductions(this.owner, this.now());
      for (const audioId of [...this.pending]) await this.reverse(audioId);
      for (const production of await store.unfinishedProductions()) {
        if (this.isOrphan(production)) await this.takeOver(production);
      }
    } catch (error) {
      log.error({ err: error }, "productions could not be checked; trying again shortly");
    }
  }

  private isOrphan(production: Production): boolean {
    if (production.owner === this.owner) return false;
    return this.now() - production.heartbeatAt > this.options.leaseMs || deadOnThisHost(production.owner);
  }

  private async takeOver(production: Production): Promise<void> {
    const { store, audio, log } = this.options;
    const audioId = production.audioId;
    if (await audio.exists(audioId)) {
      await store.finishProduction(audioId);
      log.info(
        { audio: shortAudioId(audioId), owner: production.owner },
        "a production left by a stopped process was complete; its charge stands",
      );
      return;
    }
    const entry = await store.reverseProduction(audioId, this.now());
    if (entry) {
      log.warn(
        { audio: shortAudioId(audioId), owner: production.owner, chargeEntryId: production.chargeEntryId, reversalEntryId: entry.id },
        "a production left unfinished by a stopped process: its charge was given back",
      );
    }
  }

  private async reverse(audioId: string): Promise<boolean> {
    const { store, log } = this.options;
    try {
      const entry = await store.reverseProduction(audioId, this.now());
      this.pending.delete(audioId);
      if (entry) log.warn({ audio: shortAudioId(audioId), reversalEntryId: entry.id }, "an unfinished text's charge was given back");
      if (this.options.inProgress?.failure(audioId)) this.options.inProgress.fail(audioId, "reversed");
      return true;
    } catch (error) {
      if (!this.pending.has(audioId)) {
        log.error(
          { err: error, audio: shortAudioId(audioId) },
          "an unfinished text's charge could not be given back yet; retrying until it is",
        );
      }
      this.pending.add(audioId);
      return false;
    }
  }
}
