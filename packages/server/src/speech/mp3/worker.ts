/**
 * The encoder threads: PCM from the main thread to MP3, for engines whose
 * audio arrives in the main thread (the HTTP engine). Local engines encode in
 * their own synthesis threads instead.
 */

import { createMp3Encoder } from "wasm-media-encoders";
import { type EncodeTask, encodeOutcome, type Moved, type WorkerOutcome } from "../outcome.js";
import type { Mp3Encoder } from "./encoder.js";

let encoder: Promise<Mp3Encoder> | undefined;

export async function encode(task: EncodeTask): Promise<WorkerOutcome | Moved> {
  try {
    encoder ??= createMp3Encoder().catch((error: unknown) => {
      encoder = undefined;
      throw error;
    });
    return encodeOutcome(await encoder, task.pcm, task.sampleRate, task.fitForJoin);
  } catch (error) {
    return { ok: false, reason: "failed", detail: String(error) };
  }
}

/** Nothing synthesizes here; the pool only ever runs "encode". */
export function synthesize(): WorkerOutcome {
  return { ok: false, reason: "failed", detail: "the encoder threads do not synthesize" };
}
