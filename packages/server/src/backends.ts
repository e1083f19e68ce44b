import { DiskAudioStore } from "./audio/disk.js";
import { S3AudioStore } from "./audio/s3.js";
import type { Config } from "./config/config.js";
import type { RateLimiter } from "./ratelimit/limiter.js";
import { MemoryRateLimiter } from "./ratelimit/memory.js";
import { RedisRateLimiter } from "./ratelimit/redis.js";
import { connectRedis } from "./redis/connect.js";
import type { ReplayCache } from "./replay/cache.js";
import { MemoryReplayCache } from "./replay/memory.js";
import { RedisReplayCache } from "./replay/redis.js";
import { openStore } from "./store/open.js";
import type { Store } from "./store/store.js";

export interface Backends {
  store: Store;
  audio: DiskAudioStore | S3AudioStore;
  limiter: RateLimiter;
  replay: ReplayCache;
  close(): Promise<void>;
}

/**
 * Opens what the configuration names: embedded defaults (SQLite, local audio
 * folder, in-process limits) or the shared systems of a cluster
 * (PostgreSQL, S3, Redis), each chosen on its own.
 */
export async function openBackends(config: Config): Promise<Backends> {
  const retentionMs = config.audioRetentionDays * 86_400_000;
  const store = await openStore(config.database);
  let audio: DiskAudioStore | S3AudioStore;
  if (config.s3) {
    audio = new S3AudioStore(config.s3, config.audioBaseUrl, retentionMs);
  } else {
    const disk = new DiskAudioStore(config.audioDir, config.audioBaseUrl);
    await disk.init();
    audio = disk;
  }
  const redis = config.redis ? await connectRedis(config.redis.url) : undefined;
  const limiter = redis && config.redis ? new RedisRateLimiter(redis, config.redis.prefix) : new MemoryRateLimiter();
  const replay = redis && config.redis ? new RedisReplayCache(redis, config.redis.prefix) : new MemoryReplayCache();
  return {
    store,
    audio,
    limiter,
    replay,
    async close() {
      await Promise.allSettled([limiter.close(), replay.close()]);
      if (audio instanceof S3AudioStore) audio.close();
      redis?.disconnect();
      await store.close();
    },
  };
}
