import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RateLimiter } from "../src/ratelimit/limiter.js";
import { MemoryRateLimiter } from "../src/ratelimit/memory.js";
import { RedisRateLimiter } from "../src/ratelimit/redis.js";
import { connectRedis } from "../src/redis/connect.js";
import type { ReplayCache, StoredAnswer } from "../src/replay/cache.js";
import { MemoryReplayCache } from "../src/replay/memory.js";
import { RedisReplayCache } from "../src/replay/redis.js";
import { REDIS_URL, redisAvailable, redisPrefix } from "./helpers/backends.js";

interface Backend {
  name: string;
  open(): Promise<{ limiter: () => RateLimiter; replay: () => ReplayCache; close(): Promise<void> }>;
}

/** The rate limiter and the replay cache: one suite, run on every backend. */
const backends: Backend[] = [
  {
    name: "memory",
    // One process: every caller shares the process's one limiter and cache.
    open: async () => {
      const limiter = new MemoryRateLimiter();
      const replay = new MemoryReplayCache();
      return {
        limiter: () => limiter,
        replay: () => replay,
        close: async () => Promise.all([limiter.close(), replay.close()]).then(() => {}),
      };
    },
  },
];
if (await redisAvailable()) {
  backends.push({
    name: "Redis",
    open: async () => {
      const space = redisPrefix();
      const redis = await connectRedis(REDIS_URL);
      // Two connections, as two processes of a cluster would have.
      const other = await connectRedis(REDIS_URL);
      let turn = 0;
      return {
        limiter: () => new RedisRateLimiter(turn++ % 2 ? other : redis, space.prefix),
        replay: () => new RedisReplayCache(turn++ % 2 ? other : redis, space.prefix),
        async close() {
          await space.clear();
          redis.disconnect();
          other.disconnect();
        },
      };
    },
  });
}

let n = 0;
const subject = () => `subject-${process.pid}-${++n}`;
const answer = (body: string): StoredAnswer => ({ status: 200, body });

describe.each(backends)("shared state in $name", ({ open }) => {
  let backend: Awaited<ReturnType<Backend["open"]>>;
  beforeAll(async () => {
    backend = await open();
  });
  afterAll(() => backend?.close());

  it("allows exactly the limit in a window and refuses the next, without counting it", async () => {
    const limiter = backend.limiter();
    const who = subject();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.hit(who, 3, 60_000));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(decisions[3]?.resetSeconds).toBeGreaterThanOrEqual(59);
    expect(decisions[3]?.resetSeconds).toBeLessThanOrEqual(60);
  });

  it("counts one window for every limiter instance (every process) of the same subject", async () => {
    const who = subject();
    const first = backend.limiter();
    const second = backend.limiter();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? first : second).hit(who, 6, 60_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(6);
  });

  it("slides: requests older than the window stop counting", async () => {
    const limiter = backend.limiter();
    const who = subject();
    expect((await limiter.hit(who, 1, 300)).allowed).toBe(true);
    expect((await limiter.hit(who, 1, 300)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await limiter.hit(who, 1, 300)).allowed).toBe(true);
  });

  it("runs a request once for concurrent copies, and answers replays with the first answer", async () => {
    const fingerprint = subject();
    let runs = 0;
    const produce = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return answer(`run ${runs}`);
    };
    const expiresAt = Date.now() + 60_000;
    const caches = [backend.replay(), backend.replay()];
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (caches[i % 2] as ReplayCache).once(fingerprint, expiresAt, produce)),
    );
    expect(runs).toBe(1);
    expect(new Set(answers.map((a) => a.body))).toEqual(new Set(["run 1"]));
    expect((await backend.replay().once(fingerprint, expiresAt, produce)).body).toBe("run 1");
  });

  it("forgets a request whose run failed, so that a retry can run it", async () => {
    const fingerprint = subject();
    const cache = backend.replay();
    await expect(cache.once(fingerprint, Date.now() + 60_000, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect((await cache.once(fingerprint, Date.now() + 60_000, async () => answer("second"))).body).toBe("second");
  });
});
