import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { isSsml, PCM_SAMPLE_RATE, toSrt, toVtt } from "@fangyan/protocol";
import { canJoin, cannotJoinMessage } from "../../audio/audio.js";
import { sumYuan } from "../../billing.js";
import type { Fangyan } from "../../client.js";
import type { LongTtsPart, LongTtsResult } from "../../long.js";
import { ttsToFile } from "../../node.js";
import { splitText } from "../../text/split.js";
import { parseSay, type SayArgs } from "../args.js";
import { clientFor, type Io, printJson } from "../context.js";
import { UsageError } from "../exit-codes.js";
import { bytes, count, duration, yuan } from "../format.js";
import { SAY_HELP } from "../help.js";
import { outputOf } from "../output-name.js";
import { ProgressBar } from "../progress.js";

const NO_TEXT = 'No text to speak: give it as an argument (fy say "你好" -v VOICE), with --file FILE, or on standard input';

async function readStream(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** The text from the arguments, else --file, else standard input. A file's BOM and surrounding blank lines go. */
async function readText(io: Io, args: SayArgs): Promise<string> {
  if (args.words.length > 0 && args.file !== undefined)
    throw new UsageError("Give the text either as an argument or with --file, not both");
  if (args.words.length > 0) return args.words.join(" ");
  let text: string;
  if (args.file !== undefined && args.file !== "-") {
    text = await readFile(path.resolve(io.cwd, args.file), "utf8").catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`Cannot read ${args.file}: ${error.code ?? error.message}`);
    });
  } else if (args.file === "-" || !io.stdin.isTTY) {
    text = await readStream(io.stdin);
  } else {
    throw new UsageError(NO_TEXT);
  }
  return text.replace(/^\uFEFF/, "").trim();
}

function partJson(part: LongTtsPart) {
  return {
    index: part.index,
    chars: part.chars,
    audio_url: part.audioUrl,
    request_id: part.requestId ?? null,
    bytes: part.bytes,
    duration_ms: part.durationMs,
    billing: {
      raw_chars: part.billing.rawChars,
      billable_chars: part.billing.billableChars,
      cost_yuan: part.billing.costYuan,
      balance_after_yuan: part.billing.balanceAfterYuan,
    },
    ...(part.subtitles ? { subtitles: part.subtitles } : {}),
  };
}

/** Raised when a run of several requests stops part-way: says what was already charged. */
export class PartialRunError extends Error {
  override readonly name = "PartialRunError";
  constructor(
    override readonly cause: unknown,
    readonly done: readonly LongTtsPart[],
    readonly parts: number,
  ) {
    super("stopped part-way");
  }

  get chargedYuan(): number {
    return sumYuan(this.done.map((part) => part.billing.costYuan));
  }

  get note(): string {
    return `${this.done.length} of ${this.parts} parts were already made and charged ${yuan(this.chargedYuan)}; no file was written`;
  }
}

export async function say(io: Io, argv: string[]): Promise<void> {
  const args = parseSay(argv);
  if (args.help) {
    io.stdout.write(SAY_HELP);
    return;
  }
  const voiceId = args.voice?.trim();
  if (!voiceId) throw new UsageError("Choose a voice with -v VOICE; `fy voices` lists them");
  const text = await readText(io, args);
  if (text === "") throw new UsageError(NO_TEXT);
  const client = clientFor(io, args);
  // An SSML file is named after its words, not its tags.
  const ssml = args.ssml || isSsml(text);
  const { path: file, format } = await outputOf(io.cwd, args.output, args.format, ssml ? text.replace(/<[^>]*>/g, " ") : text);
  // Refused here, before anything is sent, as wrong arguments: the user only has to pick another extension.
  const requests = ssml ? 1 : splitText(text).length;
  if (requests > 1 && !canJoin(format)) {
    throw new UsageError(
      cannotJoinMessage(
        format,
        requests,
        "write a .wav file instead (or .mp3, .pcm), or split the text into files of up to 5000 characters",
      ),
    );
  }

  const progress = new ProgressBar(io.stderr);
  const done: LongTtsPart[] = [];
  let parts = 0;
  const timings = args.srt !== undefined || args.vtt !== undefined;
  const params = {
    text,
    voiceId,
    speed: args.speed,
    pitch: args.pitch,
    volume: args.volume,
    format,
    ...(timings ? { timings } : {}),
    ...(args.ssml ? { ssml: true } : {}),
  };
  const result = await ttsToFile(client, params, file, {
    onProgress(update) {
      parts = update.parts;
      if (update.part) done.push(update.part);
      progress.update(update);
    },
  })
    .catch((error: unknown) => {
      throw done.length > 0 && done.length < parts ? new PartialRunError(error, done, parts) : error;
    })
    .finally(() => progress.stop());
  const subtitles = await writeSubtitles(io, client, args, result);

  if (args.json) {
    printJson(io, {
      file: result.path,
      format: result.format,
      bytes: result.audio.length,
      duration_ms: result.durationMs,
      voice_id: voiceId,
      raw_chars: result.rawChars,
      billable_chars: result.billableChars,
      cost_yuan: result.costYuan,
      balance_after_yuan: result.balanceAfterYuan,
      parts: result.parts.map(partJson),
      ...(subtitles.length > 0 ? { subtitles: Object.fromEntries(subtitles.map((written) => [written.kind, written.path])) } : {}),
    });
    return;
  }
  // A file under the current folder is named relative to it; anywhere else, in full.
  const relative = path.relative(io.cwd, result.path);
  const name = relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : result.path;
  const joined = result.parts.length > 1 ? `, joined from ${result.parts.length} requests` : "";
  // Raw PCM cannot say how to play it: the line does.
  const layout = result.format === "pcm" ? ` (raw PCM: signed 16-bit little-endian, mono, ${count(PCM_SAMPLE_RATE)} Hz)` : "";
  io.stdout.write(`Saved ${name}: ${duration(result.durationMs)} of speech, ${bytes(result.audio.length)}${joined}${layout}\n`);
  const rounding = result.parts.length > 1 ? ": each request rounds up to 50" : "";
  io.stdout.write(
    `Cost ${yuan(result.costYuan)} for ${count(result.rawChars)} characters (billed as ${count(result.billableChars)}${rounding}); balance ${yuan(result.balanceAfterYuan)}\n`,
  );
  for (const written of subtitles) io.stdout.write(`Saved ${written.path}: ${count(written.cues)} subtitles, one a sentence\n`);
}

interface WrittenSubtitles {
  kind: "srt" | "vtt";
  path: string;
  cues: number;
}

/**
 * The subtitle files asked for: the service's own when the text was one
 * request, else written here from every part's timings on the joined file.
 */
async function writeSubtitles(io: Io, client: Fangyan, args: SayArgs, result: LongTtsResult): Promise<WrittenSubtitles[]> {
  const sentences = (result.timings?.sentences ?? []).map((s) => ({ text: s.text, start_ms: s.startMs, end_ms: s.endMs }));
  const [only] = result.parts;
  const written: WrittenSubtitles[] = [];
  for (const kind of ["srt", "vtt"] as const) {
    const target = args[kind];
    if (target === undefined) continue;
    const served = result.parts.length === 1 ? only?.subtitles?.[kind] : undefined;
    const bytes = served ? await client.download(served) : new TextEncoder().encode(kind === "srt" ? toSrt(sentences) : toVtt(sentences));
    const file = path.resolve(io.cwd, target);
    await writeFile(file, bytes);
    written.push({ kind, path: file, cues: sentences.length });
  }
  return written;
}
