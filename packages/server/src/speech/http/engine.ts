/**
 * The HTTP engine: voices served by an OpenAI-compatible speech server
 * (Kokoro-FastAPI, LocalAI, openedai-speech, a vLLM-based server, ...). One
 * engine per endpoint (base URL, model and key): it sends the front-end's
 * normalised text, takes the PCM or WAV answer and has it encoded on the
 * encoder threads, so parts, joins, streaming and the cache work as for local
 * engines. Every failure is "engine_unavailable" to the client (a fixed
 * message: no URL, key or upstream text); the detail goes to the log.
 */

import { Admission } from "../admission.js";
import { type EngineHealth, type Pcm, type SpeechEngine, SynthesisError, type SynthesisRequest, type SynthesisResult } from "../engine.js";
import { isMp3SampleRate } from "../mp3/encoder.js";
import { mp3RateFor, resample } from "../mp3/resample.js";
import { isSilent } from "../outcome.js";
import { Circuit, type CircuitOptions, defaultCircuit } from "./circuit.js";
import { requestSpeech, UpstreamFailure } from "./speech.js";
import type { HttpVoice } from "./voice.js";

export interface HttpEngineOptions {
  /** Encodes PCM to MP3 off the event loop (the shared encoder threads). */
  encode(pcm: Int16Array, sampleRate: number, followedByMore: boolean): Promise<SynthesisResult>;
  /** The endpoint's API key, read by the configuration from the variable the voice names. */
  apiKey: string | undefined;
  /** How long a request waits for one of the endpoint's `maxConcurrent` slots before it fails as busy. */
  waitMs: number;
  /** Where failures are told, with their detail (never the key). */
  warn(detail: Record<string, unknown>, message: string): void;
  circuit?: Partial<Omit<CircuitOptions, "now">>;
  now?: () => number;
}

/** The endpoint a voice belongs to: voices with the same key share one engine. */
export function endpointKey(voice: HttpVoice): string {
  return JSON.stringify([voice.baseUrl, voice.model, voice.apiKeyEnv ?? null]);
}

export function endpointName(voice: HttpVoice): string {
  return `http:${voice.baseUrl}#${voice.model}`;
}

export function createHttpEngine(endpoint: HttpVoice, options: HttpEngineOptions): SpeechEngine {
  const now = options.now ?? Date.now;
  const circuit = new Circuit({ ...defaultCircuit, ...options.circuit, now });
  const admission = new Admission(endpoint.maxConcurrent, options.waitMs);
  const name = endpointName(endpoint);
  let closed = false;

  const fetchPcm = async (request: SynthesisRequest): Promise<Pcm> => {
    const voice = request.voice;
    if (voice.kind !== "http" || endpointKey(voice) !== endpointKey(endpoint)) throw new SynthesisError("voice_unavailable");
    if (closed) throw new SynthesisError("failed", { cause: new Error("The engine is closed") });
    if (!(await admission.acquire())) throw new SynthesisError("busy");
    try {
      if (!circuit.admit()) throw new SynthesisError("engine_unavailable", { cause: new Error("backing off after repeated failures") });
      let audio: Pcm;
      try {
        audio = await requestSpeech({ voice, text: request.text, speed: request.speed, apiKey: options.apiKey });
      } catch (error) {
        const fault = !(error instanceof UpstreamFailure) || error.endpointFault;
        if (fault) circuit.failed();
        else circuit.succeeded();
        const detail = error instanceof Error ? error.message : String(error);
        options.warn({ engine: name, detail, retry_at: iso(circuit.retryAt) }, "the speech server failed; nothing was charged");
        throw new SynthesisError("engine_unavailable", { cause: error });
      }
      circuit.succeeded();
      if (isSilent(audio.pcm)) throw new SynthesisError("no_audio");
      return shaped(audio, request.volume);
    } finally {
      admission.release();
    }
  };

  return {
    name,
    kind: "http",
    // The server's model is what sounds; its build is not visible through the API.
    version: endpoint.model,
    threads: endpoint.maxConcurrent,
    inFlight: () => admission.inFlight,
    async synthesize(request) {
      const { pcm, sampleRate } = await fetchPcm(request);
      return options.encode(pcm, sampleRate, request.followedByMore === true);
    },
    synthesizePcm: fetchPcm,
    encode: (pcm, sampleRate, followedByMore) => options.encode(pcm, sampleRate, followedByMore),
    health(): EngineHealth {
      const retryAt = circuit.retryAt;
      return {
        engine: name,
        kind: "http",
        status: retryAt === undefined ? "ok" : "down",
        ...(retryAt === undefined ? {} : { retry_at: new Date(retryAt).toISOString() }),
        in_flight: admission.inFlight,
      };
    },
    async close() {
      closed = true;
    },
  };
}

/** The volume control applied to the samples (the API has none), at a rate MP3 carries. */
function shaped({ pcm, sampleRate }: Pcm, volume: number): Pcm {
  if (volume !== 1) {
    for (let i = 0; i < pcm.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round((pcm[i] ?? 0) * volume)));
  }
  if (isMp3SampleRate(sampleRate)) return { pcm, sampleRate };
  const rate = mp3RateFor(sampleRate);
  return { pcm: resample(pcm, sampleRate, rate), sampleRate: rate };
}

function iso(at: number | undefined): string | undefined {
  return at === undefined ? undefined : new Date(at).toISOString();
}
