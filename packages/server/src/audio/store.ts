import type { Readable } from "node:stream";
import type { ByteRange } from "./range.js";

/**
 * Where finished audio files live; one implementation per backend (disk.ts,
 * s3.ts). Files are named by their audio key (ids.ts: the id of an MP3, or
 * `<id>.<extension>`). Callers (the TTS service, the /audio route, the
 * server's sweep) use only this interface.
 */
export interface AudioStore {
  /** Prepares the backend (the disk store makes its folder). */
  init(): Promise<void>;
  /** Stores the whole file; it becomes visible only once complete, and a failed write leaves nothing behind. */
  put(id: string, audio: Uint8Array): Promise<void>;
  delete(id: string): Promise<void>;
  /** True when the whole file is stored (and not yet past the retention period). */
  exists(id: string): Promise<boolean>;
  /** The file, whole or the byte range asked for; undefined when absent or past the retention period. */
  read(id: string, range: ByteRange | undefined): Promise<AudioRead | "unsatisfiable" | undefined>;
  /** Removes files older than `maxAgeMs`; returns how many went. */
  sweep(maxAgeMs: number): Promise<number>;
  /** The URL a client is given for this audio. */
  url(id: string): Promise<string>;
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
