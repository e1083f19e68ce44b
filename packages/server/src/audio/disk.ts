import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { audioFileName, isAudioKey } from "./ids.js";
import { type ByteRange, resolveRange } from "./range.js";
import type { AudioRead, AudioStore } from "./store.js";

/** Files under `<data dir>/audio/` (`<id>.mp3`, `<id>.wav`, …: ids.ts), served by the server itself at /audio/. */
export class DiskAudioStore implements AudioStore {
  constructor(
    readonly dir: string,
    private readonly baseUrl: string,
    /** Files older than this are not served (the sweep removes them later). */
    private readonly retentionMs = Number.POSITIVE_INFINITY,
  ) {}

  async url(id: string): Promise<string> {
    return `${this.baseUrl}/${audioFileName(id)}`;
  }

  async init(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
  }

  async put(id: string, audio: Uint8Array): Promise<void> {
    if (!isAudioKey(id)) throw new Error("invalid audio id");
    // Write then rename: a reader never sees half a file.
    const temporary = path.join(this.dir, `.${id}.${process.pid}.tmp`);
    try {
      await fs.writeFile(temporary, audio);
      await fs.rename(temporary, this.fileOf(id));
    } catch (error) {
      // A failed write (a full or read-only disk) must not leave its part behind: it holds space.
      await fs.rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    await fs.rm(this.fileOf(id), { force: true });
  }

  async exists(id: string): Promise<boolean> {
    return (await this.fresh(id)) !== undefined;
  }

  async read(id: string, range: ByteRange | undefined): Promise<AudioRead | "unsatisfiable" | undefined> {
    const stat = await this.fresh(id);
    if (!stat) return undefined;
    const lastModified = stat.mtime;
    if (range === undefined) {
      return { status: 200, body: createReadStream(this.fileOf(id)), contentLength: stat.size, contentRange: undefined, lastModified };
    }
    const bytes = resolveRange(range, stat.size);
    if (!bytes) return "unsatisfiable";
    return {
      status: 206,
      body: createReadStream(this.fileOf(id), bytes),
      contentLength: bytes.end - bytes.start + 1,
      contentRange: `bytes ${bytes.start}-${bytes.end}/${stat.size}`,
      lastModified,
    };
  }

  async sweep(maxAgeMs: number): Promise<number> {
    const cutoff = Date.now() - maxAgeMs;
    let removed = 0;
    for (const name of await fs.readdir(this.dir)) {
      const file = path.join(this.dir, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (stat?.isFile() && stat.mtimeMs < cutoff) {
        await fs.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  async close(): Promise<void> {}

  fileOf(id: string): string {
    if (!isAudioKey(id)) throw new Error("invalid audio id");
    return path.join(this.dir, audioFileName(id));
  }

  private async fresh(id: string) {
    if (!isAudioKey(id)) return undefined;
    const stat = await fs.stat(this.fileOf(id)).catch(() => undefined);
    if (!stat?.isFile() || Date.now() - stat.mtimeMs > this.retentionMs) return undefined;
    return stat;
  }
}
