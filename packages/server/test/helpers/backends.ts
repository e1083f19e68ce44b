import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import { Redis } from "ioredis";
import pg from "pg";
import S3rver from "s3rver";
import { freePort, tempDir } from "./harness.js";

/**
 * The real PostgreSQL, Redis and an S3-protocol server for tests. Each test
 * run gets its own database, key prefix and bucket, and removes them after.
 * With CI=true a missing PostgreSQL or Redis fails the run; elsewhere the
 * suites that need them are skipped with a message.
 */

export const POSTGRES_ADMIN_URL = process.env.FANGYAN_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const REDIS_URL = process.env.FANGYAN_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const inCi = process.env.CI === "true";

async function reachable(what: string, probe: () => Promise<unknown>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (error) {
    const message = `${what} is not reachable (${error instanceof Error ? error.message : String(error)})`;
    if (inCi) throw new Error(`${message}; CI=true requires it`);
    console.warn(`${message}: skipping the tests that need it`);
    return false;
  }
}

export function postgresAvailable(): Promise<boolean> {
  return reachable(`PostgreSQL at ${POSTGRES_ADMIN_URL}`, async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
    await client.connect();
    await client.end();
  });
}

export function redisAvailable(): Promise<boolean> {
  return reachable(`Redis at ${REDIS_URL}`, async () => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await redis.connect();
      await redis.ping();
    } finally {
      redis.disconnect();
    }
  });
}

/** A fresh, empty database on the test server; `drop()` removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fangyan_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A key prefix of its own on the shared Redis; `clear()` deletes its keys. */
export function redisPrefix(): { prefix: string; clear(): Promise<void> } {
  const prefix = `fangyan-test:${randomBytes(6).toString("hex")}:`;
  return {
    prefix,
    async clear() {
      const redis = new Redis(REDIS_URL);
      try {
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
          if (keys.length > 0) await redis.del(...keys);
          cursor = next;
        } while (cursor !== "0");
      } finally {
        redis.disconnect();
      }
    },
  };
}

export interface TestS3 {
  endpoint: string;
  bucket: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** An S3-protocol server on loopback (s3rver) with one bucket, spoken to by the real AWS SDK. */
export async function startS3(): Promise<TestS3> {
  const directory = await tempDir("fangyan-s3-");
  const port = await freePort();
  const bucket = "fangyan-audio";
  const server = new S3rver({ port, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      FANGYAN_S3_BUCKET: bucket,
      FANGYAN_S3_ENDPOINT: endpoint,
      FANGYAN_S3_REGION: "us-east-1",
      FANGYAN_S3_FORCE_PATH_STYLE: "1",
      FANGYAN_S3_ACCESS_KEY_ID: "S3RVER",
      FANGYAN_S3_SECRET_ACCESS_KEY: "S3RVER",
    },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
