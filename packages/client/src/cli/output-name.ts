import { stat } from "node:fs/promises";
import path from "node:path";
import {
  AUDIO_FORMAT_NAMES,
  AUDIO_FORMATS,
  type AudioFormatName,
  audioFormatOfFileName,
  DEFAULT_AUDIO_FORMAT,
  isAudioFormatName,
} from "@fangyan/protocol";
import { UsageError } from "./exit-codes.js";

const NAME_CHARS = 20;

const EXTENSIONS = AUDIO_FORMAT_NAMES.map((format) => `.${AUDIO_FORMATS[format].extension}`).join(" ");

/** A file name from the start of the text: "你好，世界！" -> "你好-世界.mp3" (or another format's extension). */
export function nameFromText(text: string, format: AudioFormatName = DEFAULT_AUDIO_FORMAT): string {
  const words = text
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+/, "");
  const start = Array.from(words).slice(0, NAME_CHARS).join("").replace(/-+$/, "");
  return `${start || "speech"}.${AUDIO_FORMATS[format].extension}`;
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

export interface Destination {
  path: string;
  format: AudioFormatName;
}

/**
 * Where `fy say` writes, and in which format. `--format` decides when given;
 * otherwise an explicit file's extension does (`.mp3 .wav .pcm .opus .flac`,
 * any case; a name without an extension is MP3, as before formats), and a
 * folder or no -o at all gets MP3. An explicit file is used as given (and
 * replaced); a folder, or no -o, gets a name from the text, numbered so that
 * no earlier file is overwritten.
 */
export async function outputOf(
  cwd: string,
  output: string | undefined,
  formatFlag: string | undefined,
  text: string,
): Promise<Destination> {
  if (formatFlag !== undefined && !isAudioFormatName(formatFlag.toLowerCase())) {
    throw new UsageError(`--format takes one of ${AUDIO_FORMAT_NAMES.join(", ")}; got "${formatFlag}"`);
  }
  const flag = formatFlag?.toLowerCase() as AudioFormatName | undefined;
  if (output !== undefined && !(await isDirectory(path.resolve(cwd, output)))) {
    return { path: path.resolve(cwd, output), format: flag ?? formatOfName(output) };
  }
  const format = flag ?? DEFAULT_AUDIO_FORMAT;
  const dir = path.resolve(cwd, output ?? ".");
  const name = nameFromText(text, format);
  const extension = path.extname(name);
  const stem = name.slice(0, -extension.length);
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, n === 1 ? name : `${stem}-${n}${extension}`);
    if (!(await exists(candidate))) return { path: candidate, format };
  }
}

function formatOfName(output: string): AudioFormatName {
  const extension = path.extname(output);
  if (extension === "") return DEFAULT_AUDIO_FORMAT;
  const format = audioFormatOfFileName(output);
  if (format === undefined) {
    throw new UsageError(
      `fy cannot tell the format of "${path.basename(output)}": name the file ${EXTENSIONS} (the extension picks the format), or give --format ${AUDIO_FORMAT_NAMES.join("|")}`,
    );
  }
  return format;
}
