import { Redis } from "ioredis";
import { BackendUnavailableError } from "./unavailable.js";

/**
 * One connection per process. Commands fail at once while disconnected (no
 * offline queue), so a request answers 503 quickly instead of hanging.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Reconnection is automatic; errors reach the commands that fail meanwhile.
  redis.on("error", () => {});
  await redis.connect();
  return redis;
}

export async function redisCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new BackendUnavailableError(`${what} is unreachable`, { cause: error });
  }
}
