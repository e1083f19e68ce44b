import type { Readable } from "node:stream";

/** Where finished MP3 files live; one implementation per backend (disk, S3). */
export interface AudioStore {
  /** Stores the whole file; it becomes visible only once complete. */
  put(id: string, mp3: Uint8Array): Promise<void>;
  delete(id: string): Promise<void>;
  /** Removes files older than `maxAgeMs`; returns how many went. */
  sweep(maxAgeMs: number): Promise<number>;
  /** The URL a client is given for this audio. */
  url(id: string): Promise<string>;
}

/** One read of stored audio, whole or a byte range, as the audio route streams it. */
export interface AudioRead {
  status: 200 | 206;
  body: Readable;
  contentLength: number;
  contentRange: string | undefined;
  lastModified: Date;
}
