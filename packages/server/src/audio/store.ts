import type { Readable } from "node:stream";
import type { ByteRange } from "./range.js";

/**
 * The files kept under one audio id: the MP3, and beside it, when timings
 * were asked for, its subtitles and timings (tts/timings.ts). All share the
 * audio's retention period and sweep.
 */
export type AudioFile = "mp3" | "vtt" | "srt" | "timings.json";

export const AUDIO_FILES: readonly AudioFile[] = ["mp3", "vtt", "srt", "timings.json"];

/** The Content-Type each file is stored and served with. */
export const CONTENT_TYPES: Readonly<Record<AudioFile, string>> = {
  mp3: "audio/mpeg",
  vtt: "text/vtt; charset=utf-8",
  srt: "application/x-subrip; charset=utf-8",
  "timings.json": "application/json",
};

/**
 * Where finished MP3 files live; one implementation per backend (disk.ts,
 * s3.ts). Callers (the TTS service, the /audio route, the server's sweep)
 * use only this interface.
 */
export interface AudioStore {
  /** Prepares the backend (the disk store makes its folder). */
  init(): Promise<void>;
  /** Stores the whole file; it becomes visible only once complete, and a failed write leaves nothing behind. */
  put(id: string, mp3: Uint8Array, file?: AudioFile): Promise<void>;
  /** Removes every file of the id. */
  delete(id: string): Promise<void>;
  /** True when the whole file is stored (and not yet past the retention period). */
  exists(id: string, file?: AudioFile): Promise<boolean>;
  /** The file, whole or the byte range asked for; undefined when absent or past the retention period. */
  read(id: string, range: ByteRange | undefined, file?: AudioFile): Promise<AudioRead | "unsatisfiable" | undefined>;
  /** Removes files older than `maxAgeMs`; returns how many went. */
  sweep(maxAgeMs: number): Promise<number>;
  /** The URL a client is given for this audio (or for a file beside it). */
  url(id: string, file?: AudioFile): Promise<string>;
  close(): Promise<void>;
}

/** One read of stored audio, whole or a byte range, as the audio route streams it. */
export interface AudioRead {
  status: 200 | 206;
  body: Readable;
  contentLength: number;
  /** `bytes 0-99/1234` for a 206. */
  contentRange: string | undefined;
  lastModified: Date;
}
