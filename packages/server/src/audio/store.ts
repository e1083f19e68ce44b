/** Where finished MP3 files live; one implementation per backend (disk, S3). */
export interface AudioStore {
  /** Stores the whole file; it becomes visible only once complete. */
  put(id: string, mp3: Uint8Array): Promise<void>;
  delete(id: string): Promise<void>;
  /** Removes files older than `maxAgeMs`; returns how many went. */
  sweep(maxAgeMs: number): Promise<number>;
}
