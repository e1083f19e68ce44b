import { createHash } from "node:crypto";
import type { TtsTimings } from "@fangyan/protocol";
import type { Voice } from "../speech/voices.js";
import type { TtsParams } from "./request.js";

/**
 * Finished audio files of recent requests, by everything that changes the sound, so
 * that a repeated request skips the engine. Bounded in bytes; the least
 * recently used audio goes first. Only bytes are kept: each request still
 * stores its own copy under a new id, so every customer's URL lives for the
 * retention period counted from their own request.
 */
export class AudioCache {
  // A Map iterates in insertion order; re-inserting on a hit makes that LRU order.
  private readonly entries = new Map<string, Uint8Array>();
  /** The sentence timings of entries synthesized for a request that asked for them (tts/timings.ts). */
  private readonly timings = new Map<string, TtsTimings>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): Uint8Array | undefined {
    const mp3 = this.entries.get(key);
    if (mp3 === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, mp3);
    return mp3;
  }

  /** An entry stored with its timings, and those timings. */
  getTimed(key: string): { file: Uint8Array; timings: TtsTimings } | undefined {
    const timings = this.timings.get(key);
    const file = timings && this.get(key);
    return timings && file ? { file, timings } : undefined;
  }

  set(key: string, mp3: Uint8Array, timings?: TtsTimings): void {
    // One file larger than the whole bound would only evict everything else.
    if (mp3.length > this.maxBytes) return;
    if (timings) this.timings.set(key, timings);
    else this.timings.delete(key);
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.length;
    }
    this.entries.set(key, mp3);
    this.bytes += mp3.length;
    for (const [oldest, audio] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.timings.delete(oldest);
      this.bytes -= audio.length;
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

/**
 * The engine (its name names the model or endpoint, its version the build and
 * the model file's digest: a new build may sound different), the voice (its
 * id, dialect, reading rules and whole engine entry), the controls and the
 * text. The text is keyed as the client sent it rather than as the front-end
 * reads it: the reading follows from the text, the voice and the operator
 * lexicon (read once at start, so the same for every entry of this process),
 * and a hit then skips the front-end too, which takes milliseconds on its own.
 */
export function audioCacheKey(
  engine: { name: string; version: string },
  voice: Pick<Voice, "id" | "dialect_code" | "reading" | "engine">,
  params: Pick<TtsParams, "text" | "speed" | "pitch" | "volume" | "format">,
): string {
  const parts = [engine.name, engine.version, voice.id, voice.dialect_code, voice.reading ?? null, voice.engine];
  const controls = [params.speed, params.pitch, params.volume, params.format];
  // JSON keeps field boundaries unambiguous whatever the text contains.
  return createHash("sha256")
    .update(JSON.stringify([parts, controls, params.text]))
    .digest("base64url");
}
