import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { redisCall } from "../redis/connect.js";
import { BackendUnavailableError } from "../redis/unavailable.js";
import type { ReplayCache, StoredAnswer } from "./cache.js";

const PENDING = "pending:";
const POLL_MS = 50;

/**
 * The replay cache shared by every process of a cluster. The first process to
 * claim a fingerprint (SET NX) runs the request; any other, in this or another
 * process, waits for the stored answer.
 */
export class RedisReplayCache implements ReplayCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** A waiting replay gives up after this long (the first run is still going). */
    private readonly maxWaitMs = 120_000,
  ) {}

  async once(fingerprint: string, expiresAt: number, produce: () => Promise<StoredAnswer>): Promise<StoredAnswer> {
    const key = `${this.prefix}replay:${fingerprint}`;
    const ttl = Math.max(1000, expiresAt - Date.now());
    const claim = PENDING + randomBytes(8).toString("hex");
    const claimed = await redisCall("The replay store", () => this.redis.set(key, claim, "PX", ttl, "NX"));
    if (claimed === "OK") {
      let answer: StoredAnswer;
      try {
        answer = await produce();
      } catch (error) {
        await this.redis.del(key).catch(() => 0);
        throw error;
      }
      // The request has run (and may have been charged): its answer goes back even if
      // Redis blinks now; the claim then stays, so a replay can never run it again.
      await this.redis.set(key, JSON.stringify(answer), "PX", ttl).catch(() => "");
      return answer;
    }
    return this.wait(key, expiresAt, produce);
  }

  private async wait(key: string, expiresAt: number, produce: () => Promise<StoredAnswer>): Promise<StoredAnswer> {
    const deadline = Date.now() + this.maxWaitMs;
    while (Date.now() < deadline) {
      const value = await redisCall("The replay store", () => this.redis.get(key));
      // The first run failed unexpectedly and let go: this copy may run instead.
      if (value === null) return this.once(key.slice(`${this.prefix}replay:`.length), expiresAt, produce);
      if (!value.startsWith(PENDING)) return JSON.parse(value) as StoredAnswer;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new BackendUnavailableError("The first copy of this request is still being answered");
  }

  async close(): Promise<void> {}
}
