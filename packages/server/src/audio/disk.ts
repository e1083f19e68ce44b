import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { AudioStore } from "./store.js";

const AUDIO_ID = /^[A-Za-z0-9_-]{22}$/;

/** 128 random bits, URL-safe: an audio URL is a capability, unguessable. */
export function newAudioId(): string {
  return randomBytes(16).toString("base64url");
}

export function isAudioId(id: string): boolean {
  return AUDIO_ID.test(id);
}

/** Files under `<data dir>/audio/<id>.mp3`, served by the server itself at /audio/. */
export class DiskAudioStore implements AudioStore {
  constructor(
    readonly dir: string,
    private readonly baseUrl: string,
  ) {}

  async url(id: string): Promise<string> {
    return `${this.baseUrl}/${id}.mp3`;
  }

  async init(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
  }

  async put(id: string, mp3: Uint8Array): Promise<void> {
    if (!isAudioId(id)) throw new Error("invalid audio id");
    // Write then rename: a reader never sees half a file.
    const temporary = path.join(this.dir, `.${id}.${process.pid}.tmp`);
    await fs.writeFile(temporary, mp3);
    await fs.rename(temporary, this.fileOf(id));
  }

  async delete(id: string): Promise<void> {
    await fs.rm(this.fileOf(id), { force: true });
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

  fileOf(id: string): string {
    return path.join(this.dir, `${id}.mp3`);
  }
}
