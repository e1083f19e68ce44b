import { stat } from "node:fs/promises";
import path from "node:path";

const NAME_CHARS = 20;

/** A file name from the start of the text: "你好，世界！" -> "你好-世界.mp3". */
export function nameFromText(text: string): string {
  const words = text
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+/, "");
  const start = Array.from(words).slice(0, NAME_CHARS).join("").replace(/-+$/, "");
  return `${start || "speech"}.mp3`;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function isDirectory(file: string): Promise<boolean> {
  return stat(file).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

/**
 * Where `fy say` writes. An explicit file is used as given (and replaced);
 * a folder, or no -o at all, gets a name from the text, numbered so that
 * no earlier file is overwritten.
 */
export async function outputPath(cwd: string, output: string | undefined, text: string): Promise<string> {
  if (output !== undefined && !(await isDirectory(path.resolve(cwd, output)))) return path.resolve(cwd, output);
  const dir = path.resolve(cwd, output ?? ".");
  const name = nameFromText(text);
  const stem = name.slice(0, -".mp3".length);
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, n === 1 ? name : `${stem}-${n}.mp3`);
    if (!(await exists(candidate))) return candidate;
  }
}
