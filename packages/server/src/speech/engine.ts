/**
 * The speech engine capability: text in, MP3 out. Routes and services code
 * against this interface; each backend (espeak-ng today, a neural engine
 * later) lives in its own folder beside it.
 */

export interface EngineVoice {
  /** The engine's own voice name, e.g. "cmn" or "yue". */
  espeakVoice: string;
  /** An espeak voice variant such as "f2" or "m3". */
  variant?: string;
  /** words per minute at speed 1.0 */
  rate?: number;
  /** espeak pitch 0-99 at pitch 1.0 */
  pitch?: number;
  /**
   * The voice's pitch base and range in Hz, as espeak-ng's `pitch` line of a
   * variant reads them: tones move between about base + 5% and base + 65% of
   * (range - base). Absent: the variant's own.
   */
  pitchHz?: readonly [number, number];
}

export interface SynthesisRequest {
  text: string;
  /**
   * `text` is engine markup written by the text front-end (espeak-ng phoneme
   * runs in [[ ]] and pause punctuation), not text from a client: the engine
   * passes it on as it is. Raw client text (the default) is escaped instead.
   */
  markup?: boolean;
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
}

export interface SpeechEngine {
  readonly name: string;
  readonly version: string;
  /** Syntheses that run at once (worker threads); absent: one, and texts are never split. */
  readonly threads?: number;
  /** Syntheses running or waiting now; at `threads` or more, a new one waits. */
  inFlight?(): number;
  synthesize(request: SynthesisRequest): Promise<SynthesisResult>;
  /** The engine's samples alone, for a caller that encodes them in parts on several threads. */
  synthesizePcm?(request: SynthesisRequest): Promise<{ pcm: Int16Array; sampleRate: number }>;
  /** Encodes samples as synthesize() does; `followedByMore` fits the end for a join, as in a request. */
  encode?(pcm: Int16Array, sampleRate: number, followedByMore: boolean): Promise<SynthesisResult>;
  /** Waits for running syntheses, then stops the engine's threads. */
  close(): Promise<void>;
}

/** Why a synthesis failed, so the server can choose a status without parsing messages. */
export type SynthesisFailure = "nothing_to_speak" | "no_audio" | "voice_unavailable" | "busy" | "failed";

// Messages are fixed per reason because they reach API clients: whatever the
// engine printed (paths, stacks) stays in `cause`, which only goes to logs.
const messages: Record<SynthesisFailure, string> = {
  nothing_to_speak: "The text contains nothing to speak",
  no_audio: "The speech engine produced no audio",
  voice_unavailable: "The voice is not available",
  busy: "The speech engine is busy, try again shortly",
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
