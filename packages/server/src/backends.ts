import { DiskAudioStore } from "./audio/disk.js";
import type { AudioStore } from "./audio/store.js";
import type { Config } from "./config/config.js";
import type { RateLimiter } from "./ratelimit/limiter.js";
import { MemoryRateLimiter } from "./ratelimit/memory.js";
import type { ReplayCache } from "./replay/cache.js";
import { MemoryReplayCache } from "./replay/memory.js";
import { openStore } from "./store/open.js";
import type { Store } from "./store/store.js";

export interface Backends {
  store: Store;
  audio: AudioStore;
  limiter: RateLimiter;
  replay: ReplayCache;
  close(): Promise<void>;
}

/**
 * Opens what the configuration names: embedded defaults (SQLite, local audio
 * folder, in-process limits) or the shared systems of a cluster
 * (PostgreSQL, S3, Redis), each chosen on its own. The clients of the shared
 * systems are loaded only when configured: together they hold about 30 MB.
 */
export async function openBackends(config: Config): Promise<Backends> {
  const retentionMs = config.audioRetentionDays * 86_400_000;
  const store = await openStore(config.database);
  let audio: AudioStore;
  if (config.s3) {
    const { S3AudioStore } = await import("./audio/s3.js");
    audio = new S3AudioStore(config.s3, config.audioBaseUrl, retentionMs);
  } else {
    audio = new DiskAudioStore(config.audioDir, config.audioBaseUrl, retentionMs);
  }
  await audio.init();
  let limiter: RateLimiter = new MemoryRateLimiter();
  let replay: ReplayCache = new MemoryReplayCache();
  let disconnect = () => {};
  if (config.redis) {
    const [{ connectRedis }, { RedisRateLimiter }, { RedisReplayCache }] = await Promise.all([
      import("./redis/connect.js"),
      import("./ratelimit/redis.js"),
      import("./replay/redis.js"),
    ]);
    const redis = await connectRedis(config.redis.url);
    limiter = new RedisRateLimiter(redis, config.redis.prefix);
    replay = new RedisReplayCache(redis, config.redis.prefix);
    disconnect = () => redis.disconnect();
  }
  return {
    store,
    audio,
    limiter,
    replay,
    async close() {
      await Promise.allSettled([limiter.close(), replay.close(), audio.close()]);
      disconnect();
      await store.close();
    },
  };
}
