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

// Every format is checked by decoders that share no code with ours: Debian's
// ffmpeg/ffprobe, flac and metaflac, and opusinfo (opus-tools). `.ci/run` installs them.
const formatDecoders = ["ffmpeg", "ffprobe", "flac", "metaflac", "opusinfo"] as const;
export const missingDecoders = formatDecoders.filter((tool) => spawnSync(tool, ["--help"]).error !== undefined);
if (missingDecoders.length > 0 && process.env.CI === "true") {
  throw new Error(`CI=true needs ${missingDecoders.join(", ")}; .ci/run installs them`);
}

export interface Decoded {
  codec: string;
  sampleRate: number;
  channels: number;
  /** Samples a channel, as ffmpeg decodes the whole file. */
  samples: number;
  /** The decoded samples, 16-bit mono. */
  pcm: Int16Array;
}

/**
 * A file as ffprobe and ffmpeg see it. Raw PCM has no header, so ffmpeg is
 * told its layout: `pcmRate` Hz, signed 16-bit little-endian, mono.
 */
export function decodeWithFfmpeg(file: string, options: { pcmRate?: number } = {}): Decoded {
  const input =
    options.pcmRate === undefined ? ["-i", file] : ["-f", "s16le", "-ar", String(options.pcmRate), "-ch_layout", "mono", "-i", file];
  const probe = JSON.parse(
    execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels", "-of", "json", ...input], {
      encoding: "utf8",
    }),
  ) as { streams: { codec_name: string; sample_rate: string; channels: number }[] };
  const stream = probe.streams[0];
  if (stream === undefined || probe.streams.length !== 1) throw new Error(`ffprobe found ${probe.streams.length} streams in ${file}`);
  const raw = execFileSync("ffmpeg", ["-v", "error", ...input, "-f", "s16le", "-"], { maxBuffer: 256 * 1024 * 1024 });
  const samples = raw.length / 2 / stream.channels;
  return {
    codec: stream.codec_name,
    sampleRate: Number(stream.sample_rate),
    channels: stream.channels,
    samples,
    pcm: new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length - (raw.length % 2))),
  };
}
