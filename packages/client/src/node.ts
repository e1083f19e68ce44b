/**
 * "@fangyan/client/node": everything of the main entry, plus helpers that
 * write files, which only Node can.
 */
import { rename, rm, writeFile } from "node:fs/promises";
import type { Fangyan } from "./client.js";
import type { LongTtsOptions, LongTtsResult } from "./long.js";
import type { RequestOptions, TtsParams } from "./types.js";

export * from "./index.js";

/** Writes through a temporary name, so that a failed run never leaves half a file under the real one. */
async function writeWhole(filePath: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${filePath}.${process.pid}.part`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, filePath);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Downloads an audio URL (from `tts`) into a file. */
export async function downloadToFile(
  client: Pick<Fangyan, "download">,
  audioUrl: string,
  filePath: string,
  options: RequestOptions = {},
): Promise<{ path: string; bytes: number }> {
  const audio = await client.download(audioUrl, options);
  await writeWhole(filePath, audio);
  return { path: filePath, bytes: audio.length };
}

/**
 * Speaks a text of any length into one file of `params.format` (MP3 by
 * default; see `ttsLong` for which formats join): the file is written only
 * when every part has succeeded. The format is what `params.format` says,
 * not the file name's extension; `audioFormatOfFileName` reads one.
 */
export async function ttsToFile(
  client: Pick<Fangyan, "ttsLong">,
  params: TtsParams,
  filePath: string,
  options: LongTtsOptions = {},
): Promise<LongTtsResult & { path: string }> {
  const result = await client.ttsLong(params, options);
  await writeWhole(filePath, result.audio);
  return { ...result, path: filePath };
}
