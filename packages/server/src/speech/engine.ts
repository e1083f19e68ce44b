/**
 * The speech engine capability: a voice's text in, encoded audio out. Each
 * backend lives in a folder beside this file (espeak/, sherpa/, http/) and
 * produces PCM; encoding (mp3/) and the gapless fitting of parts are shared
 * by all of them. Local engines synthesize and encode in the same worker
 * thread, so only the small MP3 crosses threads; the HTTP engine receives
 * PCM from its server and encodes it on the encoder threads. The service
 * asks the engine registry (engines.ts) for the engine of each voice.
 */

import type { EngineVoice } from "./voices.js";

export type { EngineVoice };

export interface SynthesisRequest {
  text: string;
  /**
   * `text` is engine markup written by the text front-end (espeak-ng phoneme
   * runs in [[ ]] and pause punctuation), not text from a client: the engine
   * passes it on as it is. Raw client text (the default) is escaped instead.
   * Engines other than espeak-ng are always given plain normalised text.
   */
  markup?: boolean;
  /** The voice's `engine` entry of the catalog. */
  voice: EngineVoice;
  /** 0.5-2.0, 1 = voice default */
  speed: number;
  /** 0.5-2.0, 1 = voice default */
  pitch: number;
  /** 0.1-2.0 */
  volume: number;
  /**
   * This is a part of a longer text and another part follows: its trailing
   * silence is fitted so that the parts join without a gap (mp3/gapless.ts).
   */
  followedByMore?: boolean;
}

export interface SynthesisResult {
  /** A complete MP3 stream, starting with a Xing/Info frame that carries its length. */
  mp3: Uint8Array;
  /** Length of the speech itself, without the encoder's delay and padding. */
  durationMs: number;
  sampleRate: number;
  /**
   * Where the encoded samples are louder than silence, in samples from the
   * start of the audio as decoded; what sentence timings are made of.
   */
  voiced?: { from: number; to: number };
}

/** Mono 16-bit samples, what every engine produces before encoding. */
export interface Pcm {
  pcm: Int16Array;
  sampleRate: number;
}

/** How an engine is doing, for /healthz: an HTTP endpoint that keeps failing is "down" until a trial succeeds. */
export interface EngineHealth {
  engine: string;
  kind: EngineKind;
  status: "ok" | "down";
  /** While down: when the next trial request is let through. */
  retry_at?: string;
  /** Syntheses running or waiting now. */
  in_flight: number;
}

export type EngineKind = "espeak-ng" | "sherpa-onnx" | "http";

export interface SpeechEngine {
  /**
   * What produced the audio, part of the audio cache key: the kind and the
   * model or endpoint ("espeak-ng", "sherpa-onnx:vits-zh-aishell3",
   * "http:http://gpu:8880/v1#kokoro"), and its version (the package's, plus
   * the model file's digest for sherpa-onnx), since a new build may sound different.
   */
  readonly name: string;
  readonly version: string;
  readonly kind: EngineKind;
  /** Syntheses that run at once (worker threads, or requests to a server); absent: one, and texts are never split. */
  readonly threads?: number;
  /** Syntheses running or waiting now; at `threads` or more, a new one waits. */
  inFlight?(): number;
  synthesize(request: SynthesisRequest): Promise<SynthesisResult>;
  /** The engine's samples alone, for a caller that encodes them in parts on several threads. */
  synthesizePcm?(request: SynthesisRequest): Promise<Pcm>;
  /** Encodes samples as synthesize() does; `followedByMore` fits the end for a join, as in a request. */
  encode?(pcm: Int16Array, sampleRate: number, followedByMore: boolean): Promise<SynthesisResult>;
  health?(): EngineHealth;
  /** Waits for running syntheses, then stops the engine's threads. */
  close(): Promise<void>;
}

/** Every engine of the catalog's voices, and the one that speaks a voice. */
export interface SpeechEngines {
  /** The engine of a catalog voice's `engine` entry; one the registry was not built for fails as voice_unavailable. */
  for(voice: EngineVoice): SpeechEngine;
  health(): EngineHealth[];
  close(): Promise<void>;
}

/** Why a synthesis failed, so the server can choose a status without parsing messages. */
export type SynthesisFailure = "nothing_to_speak" | "no_audio" | "voice_unavailable" | "busy" | "engine_unavailable" | "failed";

// Messages are fixed per reason because they reach API clients: whatever the
// engine printed (paths, stacks) stays in `cause`, which only goes to logs.
const messages: Record<SynthesisFailure, string> = {
  nothing_to_speak: "The text contains nothing to speak",
  no_audio: "The speech engine produced no audio",
  voice_unavailable: "The voice is not available",
  busy: "The speech engine is busy, try again shortly",
  engine_unavailable: "The speech engine for this voice is unavailable; nothing was charged. Try again later",
  failed: "Speech synthesis failed",
};

export class SynthesisError extends Error {
  override readonly name = "SynthesisError";
  readonly reason: SynthesisFailure;

  constructor(reason: SynthesisFailure, options?: { cause?: unknown }) {
    super(messages[reason], options);
    this.reason = reason;
  }
}
