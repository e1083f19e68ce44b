/**
 * The audio format capability: 16-bit mono PCM in, the bytes of one file
 * format out, either whole or as a stream that can be sent while a long text
 * is still being synthesized. One file per format beside this interface.
 */

export type AudioFormatName = "mp3" | "wav" | "pcm" | "opus" | "flac";

/** One stream being encoded: `push` returns the bytes ready so far, `end` the rest. */
export interface StreamEncoder {
  push(pcm: Int16Array): Uint8Array;
  end(): Uint8Array;
}

export interface AudioFormat {
  readonly name: AudioFormatName;
  /** The HTTP Content-Type of a file of this format. */
  readonly contentType: string;
  /** The file name extension, without the dot. */
  readonly extension: string;
  /** The sample rate a file of this format carries for PCM at `sampleRate`. */
  outputSampleRate(sampleRate: number): number;
  /** A whole file: headers state the exact length where the format has one. */
  encode(pcm: Int16Array, sampleRate: number): Promise<Uint8Array>;
  /**
   * A stream whose length is not known when it starts. Asynchronous because
   * an encoder may first have to instantiate its WebAssembly (MP3's LAME).
   */
  start(sampleRate: number): Promise<StreamEncoder>;
}

/** Pieces joined into one array (a Buffer, so mind its byteOffset when reading `.buffer`). */
export function concatBytes(pieces: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(pieces);
}

/** The bytes of 16-bit PCM, little-endian whatever the machine's order. */
export function pcmBytes(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < pcm.length; i++) view.setInt16(i * 2, pcm[i] ?? 0, true);
  return out;
}
