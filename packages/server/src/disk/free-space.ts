import fs from "node:fs";

export interface StorageStatus {
  /** Under the threshold: new paid work is refused up front. */
  full: boolean;
  freeBytes: number;
  minFreeBytes: number;
  path: string;
}

/**
 * Free space where the service writes (the SQLite database and the audio
 * folder, both under the data directory by default). Below `minFreeBytes` new
 * paid work is refused before anything is synthesized or charged, rather than
 * failing halfway with a full disk. Read at most every `everyMs` (one statfs
 * call), so a busy server does not ask on every request.
 */
export class FreeSpace {
  private checked: StorageStatus | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly paths: readonly string[],
    private readonly minFreeBytes: number,
    private readonly everyMs = 1000,
  ) {}

  status(): StorageStatus {
    const now = performance.now();
    if (this.checked && now - this.checkedAt < this.everyMs) return this.checked;
    let lowest: StorageStatus | undefined;
    for (const path of this.paths) {
      let freeBytes: number;
      try {
        const stats = fs.statfsSync(path);
        freeBytes = stats.bavail * stats.bsize;
      } catch {
        continue; // not created yet: nothing written there to fill
      }
      if (!lowest || freeBytes < lowest.freeBytes) lowest = { full: false, freeBytes, minFreeBytes: this.minFreeBytes, path };
    }
    const status = lowest ?? { full: false, freeBytes: Number.POSITIVE_INFINITY, minFreeBytes: this.minFreeBytes, path: "" };
    status.full = status.freeBytes < this.minFreeBytes;
    this.checked = status;
    this.checkedAt = now;
    return status;
  }
}
