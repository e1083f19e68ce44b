/**
 * The audio format capability: 16-bit mono PCM in, the bytes of one file
 * format out, either whole or as a stream that can be sent while a long text
 * is still being synthesized. One file per format beside this interface.
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import type { AudioFormatName } from "@fangyan/protocol";

export type { AudioFormatName };

/** One stream being encoded: `push` returns the bytes ready so far, `end` the rest. */
export interface StreamEncoder {
  push(pcm: Int16Array): Uint8Array;
  end(): Uint8Array;
  /**
   * The file to keep once the stream has ended: the streamed bytes with the
   * length (and checksum) the stream's header could not state yet filled in.
   * Absent where the streamed bytes are already the whole file.
   */
  seal?(file: Uint8Array): Uint8Array;
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

/** Samples encoded between two turns of the event loop (about a second of speech). */
const sliceSamples = 24_000;

/**
 * A whole file, encoded on the calling thread in slices with a turn of the
 * event loop between them: a minute of Opus costs about a second of CPU
 * (docs/formats.md), which must not stall every other request meanwhile.
 */
export async function encodeInSlices(format: AudioFormat, pcm: Int16Array, sampleRate: number): Promise<Uint8Array> {
  const stream = await format.start(sampleRate);
  const file = concatBytes([await pushInSlices(stream, pcm), stream.end()]);
  return stream.seal ? stream.seal(file) : file;
}

/** Pushes PCM into a stream in slices, a turn of the event loop between them; returns the bytes ready. */
export async function pushInSlices(stream: StreamEncoder, pcm: Int16Array): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  for (let start = 0; start < pcm.length; start += sliceSamples) {
    if (start > 0) await nextTurn();
    pieces.push(stream.push(pcm.subarray(start, start + sliceSamples)));
  }
  return concatBytes(pieces);
}
