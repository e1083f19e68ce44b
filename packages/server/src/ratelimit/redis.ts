import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { redisCall } from "../redis/connect.js";
import type { RateLimitDecision, RateLimiter } from "./limiter.js";

// A sliding log in a sorted set, checked and updated atomically. Redis's own
// clock is used so that every process agrees on the window whatever its clock.
const SLIDING_LOG = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local member = ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  redis.call('ZADD', key, now, member)
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
local first = now
if oldest[2] then first = tonumber(oldest[2]) end
redis.call('PEXPIRE', key, window)
return {allowed, count, first + window - now}
`;

/** The shared limiter of a cluster: every process counts in the same window. */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async hit(subject: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const member = randomBytes(8).toString("hex");
    const reply = await redisCall("The rate-limit store", () =>
      this.redis.eval(SLIDING_LOG, 1, `${this.prefix}rate:${subject}`, limit, windowMs, member),
    );
    const [allowed, count, resetMs] = reply as [number, number, number];
    return {
      allowed: allowed === 1,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }

  async close(): Promise<void> {}
}
