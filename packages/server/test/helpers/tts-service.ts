import fs from "node:fs/promises";
import path from "node:path";
import Fastify from "fastify";
import { AccountService } from "../../src/accounts/service.js";
import { DiskAudioStore } from "../../src/audio/disk.js";
import { AudioInProgress } from "../../src/audio/in-progress.js";
import { audioRoutes } from "../../src/audio/routes.js";
import type { AudioStore } from "../../src/audio/store.js";
import type { SpeechEngine, SynthesisRequest } from "../../src/speech/engine.js";
import { singleEngine } from "../../src/speech/engines.js";
import { createEspeakEngine } from "../../src/speech/espeak/engine.js";
import { loadVoiceCatalog } from "../../src/speech/voices.js";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { KeyOwner, Store } from "../../src/store/store.js";
import { ProductionKeeper } from "../../src/tts/productions.js";
import type { TtsParams } from "../../src/tts/request.js";
import { TtsService, type TtsServiceOptions } from "../../src/tts/service.js";
import { tempDir } from "./harness.js";

/** The real engine, counting its calls and able to fail on demand, so a test can watch what reaches it. */
export interface WatchedEngine extends SpeechEngine {
  calls: SynthesisRequest[];
  /** Calls for which this is true fail, once `failAfter` (if set) has resolved. */
  failWhen: ((request: SynthesisRequest, call: number) => boolean) | undefined;
  failAfter: Promise<void> | undefined;
  /** Calls for which this is true wait for `holdUntil` before they reach the engine, so a test can keep work in flight. */
  holdWhen: ((request: SynthesisRequest, call: number) => boolean) | undefined;
  holdUntil: Promise<void> | undefined;
  /** Samples encoded apart from a synthesis, one entry per encode() call. */
  encoded: number[];
}

export function watchEngine(inner: SpeechEngine): WatchedEngine {
  const watched: WatchedEngine = {
    name: inner.name,
    kind: inner.kind,
    version: inner.version,
    threads: inner.threads ?? 1,
    inFlight: () => inner.inFlight?.() ?? 0,
    calls: [],
    failWhen: undefined,
    failAfter: undefined,
    holdWhen: undefined,
    holdUntil: undefined,
    encoded: [],
    async synthesize(request) {
      watched.calls.push(request);
      if (watched.holdWhen?.(request, watched.calls.length)) await watched.holdUntil;
      if (watched.failWhen?.(request, watched.calls.length)) {
        await watched.failAfter;
        throw new Error("engine failure injected by the test");
      }
      return inner.synthesize(request);
    },
    close: () => inner.close(),
  };
  const { synthesizePcm, encode } = inner;
  if (synthesizePcm && encode) {
    watched.synthesizePcm = async (request) => {
      watched.calls.push(request);
      if (watched.failWhen?.(request, watched.calls.length)) throw new Error("engine failure injected by the test");
      return synthesizePcm(request);
    };
    watched.encode = (pcm, sampleRate, followedByMore) => {
      watched.encoded.push(pcm.length);
      return encode(pcm, sampleRate, followedByMore);
    };
  }
  return watched;
}

export interface ServiceRig {
  service: TtsService;
  inProgress: AudioInProgress;
  productions: ProductionKeeper;
  /** The /audio routes over this rig's audio, listening on a port. */
  audioUrl(id: string): string;
  engine: WatchedEngine;
  store: Store;
  /** The real audio folder (faults, if any, wrap it only for the service, the keeper and the routes). */
  audio: DiskAudioStore;
  owner(yuan?: string): Promise<KeyOwner>;
  close(): Promise<void>;
}

/** Wrappers a test puts around the real store and audio store (to inject faults), used by everything in the rig. */
export interface RigFaults {
  store?: (store: Store) => Store;
  audio?: (audio: AudioStore) => AudioStore;
}

/** TtsService over a real SQLite store, a real audio folder, the real engine and the real /audio routes. */
export async function serviceRig(options: Partial<TtsServiceOptions> = {}, faults: RigFaults = {}): Promise<ServiceRig> {
  const dir = await tempDir();
  const realStore = await openSqliteStore(path.join(dir, "fangyan.db"));
  const disk = new DiskAudioStore(path.join(dir, "audio"), "http://127.0.0.1:1/audio");
  await disk.init();
  const store = faults.store ? faults.store(realStore) : realStore;
  const audio = faults.audio ? faults.audio(disk) : disk;
  const engine = watchEngine(createEspeakEngine({ threads: 2 }));
  const inProgress = new AudioInProgress();
  const log = Fastify({ logger: false }).log;
  const productions = new ProductionKeeper({ store, audio, log, leaseMs: 30_000, inProgress });
  const service = new TtsService({
    store,
    engines: singleEngine(engine),
    voices: loadVoiceCatalog(),
    audio,
    log,
    inProgress,
    productions,
    ...options,
  });
  const app = Fastify({ logger: false });
  await app.register(audioRoutes, {
    prefix: "/audio",
    store: audio,
    retentionMs: 86_400_000,
    inProgress,
    unfinished: (id) => productions.outcome(id),
  });
  const base = await app.listen({ host: "127.0.0.1", port: 0 });
  const accounts = new AccountService(store);
  return {
    service,
    inProgress,
    productions,
    audioUrl: (id) => `${base}/audio/${id}.mp3`,
    engine,
    store,
    audio: disk,
    async owner(yuan = "10") {
      const created = await accounts.createAccount({ name: "t", rechargeYuan: yuan });
      return { key: created.key, account: created.account };
    },
    async close() {
      await service.drain();
      await productions.stop();
      await app.close();
      await engine.close();
      await realStore.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** A request to the service as the API would hand it over: `text` in cmn-female-1 at the default controls. */
export function ttsParams(text: string, overrides: Partial<TtsParams> = {}): TtsParams {
  return {
    text,
    voiceId: "cmn-female-1",
    rawChars: [...text].length,
    speed: 1,
    pitch: 1,
    volume: 1,
    format: "mp3",
    timings: false,
    ...overrides,
  };
}

/** The audio id in an audio URL; throws on anything else. */
export function audioIdOf(url: string): string {
  const id = /\/([A-Za-z0-9_-]{22})\.mp3$/.exec(url)?.[1];
  if (!id) throw new Error(`not an audio URL: ${url}`);
  return id;
}
