import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { tempDir } from "./harness.js";

/**
 * The native `lame` decoder, an independent check of what players hear. `.ci/run` installs it;
 * elsewhere the checks that need it are skipped when it is absent.
 */
export const lameInstalled = !spawnSync("lame", ["--version"]).error;
if (!lameInstalled && process.env.CI === "true") throw new Error("CI=true needs the lame decoder; .ci/run installs it");

/** PCM as `lame --decode` gives it: the encoder delay and padding of the file's LAME tag removed. */
export async function decodeMp3(mp3: Uint8Array): Promise<Int16Array> {
  const dir = await tempDir("fangyan-decode-");
  try {
    const input = path.join(dir, "in.mp3");
    const output = path.join(dir, "out.wav");
    await fs.writeFile(input, mp3);
    execFileSync("lame", ["--quiet", "--decode", input, output]);
    const wav = await fs.readFile(output);
    // lame writes a plain 44-byte header before 16-bit mono PCM.
    const pcm = wav.subarray(44);
    return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length - (pcm.length % 2)));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The largest step between neighbouring samples in [from, to): a click shows up as a step. */
export function largestStep(pcm: Int16Array, from = 0, to = pcm.length): number {
  let largest = 0;
  for (let i = Math.max(1, from); i < Math.min(to, pcm.length); i++) {
    largest = Math.max(largest, Math.abs((pcm[i] ?? 0) - (pcm[i - 1] ?? 0)));
  }
  return largest;
}
