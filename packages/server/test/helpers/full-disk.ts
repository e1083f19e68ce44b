import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import { tempDir } from "./harness.js";

/** A small real filesystem (tmpfs) that a test can fill to the last byte. */
export interface SmallDisk {
  dir: string;
  /** Writes a file that takes every free byte but `leaveBytes`. */
  fill(leaveBytes?: number): Promise<void>;
  /** Removes what fill() wrote. */
  free(): Promise<void>;
  unmount(): Promise<void>;
}

/**
 * Mounts a tmpfs of `megabytes` (root only). Undefined where mounting is not
 * permitted; with CI=true that is an error, since CI runs as root on a machine
 * where it is (the injected-fault tests run everywhere besides).
 */
export async function mountSmallDisk(megabytes: number): Promise<SmallDisk | undefined> {
  const dir = await tempDir("fangyan-small-disk-");
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    if (process.env.CI === "true") throw new Error(`CI=true: a tmpfs could not be mounted for the full-disk tests: ${String(error)}`);
    console.warn("a tmpfs cannot be mounted here (not root?): the real full-disk tests are skipped; the injected-fault ones still run");
    return undefined;
  }
  const filler = `${dir}/filler`;
  return {
    dir,
    async fill(leaveBytes = 0) {
      const stats = await fs.statfs(dir);
      const free = stats.bavail * stats.bsize;
      const handle = await fs.open(filler, "a");
      try {
        const chunk = Buffer.alloc(64 * 1024, 1);
        let left = free - leaveBytes;
        while (left > 0) {
          const size = Math.min(chunk.length, left);
          try {
            await handle.write(chunk, 0, size);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === "ENOSPC") break;
            throw error;
          }
          left -= size;
        }
      } finally {
        await handle.close();
      }
    },
    async free() {
      await fs.rm(filler, { force: true });
    },
    async unmount() {
      execFileSync("umount", ["-l", dir], { stdio: "pipe" });
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
