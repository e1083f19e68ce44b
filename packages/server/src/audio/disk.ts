import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { isAudioId } from "./ids.js";
import { type ByteRange, resolveRange } from "./range.js";
import { AUDIO_FILES, type AudioFile, type AudioRead, type AudioStore } from "./store.js";

/** Files under `<data dir>/audio/<id>.mp3`, served by the server itself at /audio/. */
export class DiskAudioStore implements AudioStore {
  constructor(
    readonly dir: string,
    private readonly baseUrl: string,
    /** Files older than this are not served (the sweep removes them later). */
    private readonly retentionMs = Number.POSITIVE_INFINITY,
  ) {}

  async url(id: string, file: AudioFile = "mp3"): Promise<string> {
    return `${this.baseUrl}/${id}.${file}`;
  }

  async init(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
  }

  async put(id: string, mp3: Uint8Array, file: AudioFile = "mp3"): Promise<void> {
    if (!isAudioId(id)) throw new Error("invalid audio id");
    // Write then rename: a reader never sees half a file.
    const temporary = path.join(this.dir, `.${id}.${file}.${process.pid}.tmp`);
    try {
      await fs.writeFile(temporary, mp3);
      await fs.rename(temporary, this.fileOf(id, file));
    } catch (error) {
      // A failed write (a full or read-only disk) must not leave its part behind: it holds space.
      await fs.rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    for (const file of AUDIO_FILES) await fs.rm(this.fileOf(id, file), { force: true });
  }

  async exists(id: string, file: AudioFile = "mp3"): Promise<boolean> {
    return (await this.fresh(id, file)) !== undefined;
  }

  async read(id: string, range: ByteRange | undefined, file: AudioFile = "mp3"): Promise<AudioRead | "unsatisfiable" | undefined> {
    const stat = await this.fresh(id, file);
    if (!stat) return undefined;
    const lastModified = stat.mtime;
    if (range === undefined) {
      return {
        status: 200,
        body: createReadStream(this.fileOf(id, file)),
        contentLength: stat.size,
        contentRange: undefined,
        lastModified,
      };
    }
    const bytes = resolveRange(range, stat.size);
    if (!bytes) return "unsatisfiable";
    return {
      status: 206,
      body: createReadStream(this.fileOf(id, file), bytes),
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

  fileOf(id: string, file: AudioFile = "mp3"): string {
    if (!isAudioId(id)) throw new Error("invalid audio id");
    return path.join(this.dir, `${id}.${file}`);
  }

  private async fresh(id: string, file: AudioFile) {
    if (!isAudioId(id)) return undefined;
    const stat = await fs.stat(this.fileOf(id, file)).catch(() => undefined);
    if (!stat?.isFile() || Date.now() - stat.mtimeMs > this.retentionMs) return undefined;
    return stat;
  }
}
