import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseStoreLocation, type StoreLocation } from "../store/open.js";

/**
 * Every setting of the service, parsed once from the environment at start.
 * Only the `fangyan` command (bin/fangyan.ts) hands process.env to the parser;
 * the rest of the service reads this object. `npm run bench` (src/bench/) is
 * the exception: its own BENCH_* knobs and the child it starts read the
 * environment directly, as a tool beside the service.
 */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseFile: string;
  audioDir: string;
  publicUrl: string;
  audioBaseUrl: string;
  rateLimitPerMinute: number;
  authFailuresPerMinute: number;
  audioRetentionDays: number;
  adminToken: string | undefined;
  demo: boolean;
  voicesFile: string | undefined;
  /** Installed sherpa-onnx models, one folder each (fangyan models add). */
  modelsDir: string;
  /** sherpa-onnx worker threads; unset: as synthesisThreads. */
  sherpaThreads: number | undefined;
  /**
   * The value of an environment variable that a voice names for an HTTP
   * engine's key (`apiKeyEnv`): any name, so it is read on demand, here,
   * where the environment is read; undefined when unset or empty.
   */
  secret: (name: string) => string | undefined;
  /** The operator lexicon (word -> reading per dialect), a TSV file; unset: none. */
  lexiconFile: string | undefined;
  synthesisThreads: number | undefined;
  /** Syntheses that may queue for a thread; past that a request waits for room. */
  synthesisQueue: number;
  /** How long a request waits for room in a full queue before it fails as busy. */
  synthesisWaitMs: number;
  /**
   * A streamed text's production whose process has not shown a sign of life
   * for this long is taken over, and its charge given back unless its audio
   * was stored whole.
   */
  productionLeaseMs: number;
  /** Below this much free space where the data is written, new paid work is refused up front. */
  minFreeBytes: number;
  /** Bytes of finished audio remembered for repeated identical requests; 0: no cache. */
  audioCacheBytes: number;
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  logLevel: string;
  /** Take the client address from X-Forwarded-For (only behind your own reverse proxy). */
  trustProxy: boolean;
  /** Serve the OpenAI-compatible /v1/audio/speech, /v1/models and /v1/audio/voices beside /api/v1. */
  openaiApi: boolean;
  /** Web origins whose pages may call the API and fetch audio (CORS); empty: none. */
  corsOrigins: string[];
  /** Accounts, keys and ledger: the SQLite file by default, or PostgreSQL. */
  database: StoreLocation;
  /** Shared rate limits and replay cache for a cluster; in-process when unset. */
  redis: { url: string; prefix: string } | undefined;
  /** Audio in an S3-compatible bucket; the local audio folder when unset. */
  s3: S3Settings | undefined;
}

export interface S3Settings {
  bucket: string;
  prefix: string;
  region: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** audio_url is a presigned GET of the bucket instead of the audio host's URL. */
  presign: boolean;
}

const integer = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(z.number().int().min(min).max(max));

const url = z
  .string()
  .trim()
  .url("must be an absolute http(s) URL")
  .refine((value) => /^https?:\/\//.test(value), "must start with http:// or https://")
  .transform((value) => value.replace(/\/+$/, ""));

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => ["0", "1", "true", "false", "yes", "no", "on", "off"].includes(value), "must be 0 or 1")
  .transform((value) => ["1", "true", "yes", "on"].includes(value));

/** "https://a.example, http://localhost:5173": exact origins, scheme and host (and port) only. */
const origins = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.string().refine((origin) => URL.canParse(origin) && new URL(origin).origin === origin && /^https?:/.test(origin), {
        message: "must be a comma-separated list of origins like https://app.example.com (no path, no trailing slash)",
      }),
    ),
  );

const schema = z.object({
  FANGYAN_HOST: z.string().trim().min(1).default("127.0.0.1"),
  FANGYAN_PORT: integer(0, 65535).default(8080),
  FANGYAN_DATA_DIR: z.string().trim().min(1).optional(),
  FANGYAN_PUBLIC_URL: url.optional(),
  FANGYAN_AUDIO_BASE_URL: url.optional(),
  FANGYAN_RATE_LIMIT_PER_MINUTE: integer(1, 1_000_000).default(60),
  FANGYAN_AUTH_FAILURES_PER_MINUTE: integer(1, 1_000_000).default(30),
  FANGYAN_AUDIO_RETENTION_DAYS: integer(1, 3650).default(7),
  FANGYAN_ADMIN_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters")
    .refine((value) => !/\s/.test(value), "must not contain white space")
    .optional(),
  FANGYAN_DEMO: flag.default(true),
  FANGYAN_VOICES_FILE: z.string().trim().min(1).optional(),
  FANGYAN_LEXICON_FILE: z.string().trim().min(1).optional(),
  FANGYAN_MODELS_DIR: z.string().trim().min(1).optional(),
  FANGYAN_SHERPA_THREADS: integer(1, 256).optional(),
  FANGYAN_SYNTHESIS_THREADS: integer(1, 256).optional(),
  FANGYAN_SYNTHESIS_QUEUE: integer(1, 100_000).default(256),
  FANGYAN_SYNTHESIS_WAIT_MS: integer(0, 600_000).default(30_000),
  FANGYAN_AUDIO_CACHE_MB: integer(0, 65_536).default(16),
  FANGYAN_PRODUCTION_LEASE_SECONDS: integer(1, 3600).default(30),
  FANGYAN_MIN_FREE_MB: integer(0, 1_000_000).default(100),
  FANGYAN_BODY_LIMIT_BYTES: integer(1024, 10_000_000).default(262_144),
  FANGYAN_REQUEST_TIMEOUT_MS: integer(1000, 3_600_000).default(300_000),
  FANGYAN_TRUST_PROXY: flag.default(false),
  FANGYAN_OPENAI_API: flag.default(true),
  FANGYAN_CORS_ORIGINS: origins.optional(),
  FANGYAN_DATABASE_URL: z.string().trim().min(1).optional(),
  FANGYAN_REDIS_URL: z
    .string()
    .trim()
    .regex(/^rediss?:\/\//, "must start with redis:// or rediss://")
    .optional(),
  FANGYAN_REDIS_PREFIX: z.string().trim().min(1).default("fangyan:"),
  FANGYAN_S3_BUCKET: z.string().trim().min(3).optional(),
  FANGYAN_S3_PREFIX: z.string().trim().default("audio/"),
  FANGYAN_S3_REGION: z.string().trim().min(1).default("us-east-1"),
  FANGYAN_S3_ENDPOINT: url.optional(),
  FANGYAN_S3_FORCE_PATH_STYLE: flag.default(false),
  FANGYAN_S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  FANGYAN_S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  FANGYAN_S3_PRESIGN: flag.default(false),
  FANGYAN_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * `data/` in the Fangyan checkout that `cwd` is inside (the folder whose
 * package.json is the "fangyan" workspace), else `./data` in `cwd`. `npm start`
 * runs in the checkout's root, and `npx fangyan admin …` run from any folder
 * of the checkout then finds the same database as the server.
 */
export function defaultDataDir(cwd: string): string {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown; workspaces?: unknown };
      if (manifest.name === "fangyan" && Array.isArray(manifest.workspaces)) return path.join(dir, "data");
    } catch {
      // no package.json here, or not one of ours
    }
    if (path.dirname(dir) === dir) return path.resolve(cwd, "data");
  }
}

/** Empty variables count as unset, so `FANGYAN_PORT= npm start` keeps the default. */
function present(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith("FANGYAN_") && value !== undefined && value !== "") out[name] = value;
  }
  return out;
}

export function parseConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
  const result = schema.safeParse(present(env));
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  const e = result.data;
  const dataDir = e.FANGYAN_DATA_DIR === undefined ? defaultDataDir(cwd) : path.resolve(cwd, e.FANGYAN_DATA_DIR);
  const shownHost = e.FANGYAN_HOST === "0.0.0.0" || e.FANGYAN_HOST === "::" ? "127.0.0.1" : e.FANGYAN_HOST;
  const hostForUrl = shownHost.includes(":") ? `[${shownHost}]` : shownHost;
  const publicUrl = e.FANGYAN_PUBLIC_URL ?? `http://${hostForUrl}:${e.FANGYAN_PORT}`;
  return {
    host: e.FANGYAN_HOST,
    port: e.FANGYAN_PORT,
    dataDir,
    databaseFile: path.join(dataDir, "fangyan.db"),
    audioDir: path.join(dataDir, "audio"),
    publicUrl,
    audioBaseUrl: e.FANGYAN_AUDIO_BASE_URL ?? `${publicUrl}/audio`,
    rateLimitPerMinute: e.FANGYAN_RATE_LIMIT_PER_MINUTE,
    authFailuresPerMinute: e.FANGYAN_AUTH_FAILURES_PER_MINUTE,
    audioRetentionDays: e.FANGYAN_AUDIO_RETENTION_DAYS,
    adminToken: e.FANGYAN_ADMIN_TOKEN,
    demo: e.FANGYAN_DEMO,
    voicesFile: e.FANGYAN_VOICES_FILE ? path.resolve(cwd, e.FANGYAN_VOICES_FILE) : undefined,
    modelsDir: e.FANGYAN_MODELS_DIR ? path.resolve(cwd, e.FANGYAN_MODELS_DIR) : path.join(dataDir, "models"),
    sherpaThreads: e.FANGYAN_SHERPA_THREADS,
    secret: (name) => {
      const value = env[name];
      return value === undefined || value === "" ? undefined : value;
    },
    lexiconFile: e.FANGYAN_LEXICON_FILE ? path.resolve(cwd, e.FANGYAN_LEXICON_FILE) : undefined,
    synthesisThreads: e.FANGYAN_SYNTHESIS_THREADS,
    synthesisQueue: e.FANGYAN_SYNTHESIS_QUEUE,
    synthesisWaitMs: e.FANGYAN_SYNTHESIS_WAIT_MS,
    audioCacheBytes: e.FANGYAN_AUDIO_CACHE_MB * 1024 * 1024,
    productionLeaseMs: e.FANGYAN_PRODUCTION_LEASE_SECONDS * 1000,
    minFreeBytes: e.FANGYAN_MIN_FREE_MB * 1024 * 1024,
    bodyLimitBytes: e.FANGYAN_BODY_LIMIT_BYTES,
    requestTimeoutMs: e.FANGYAN_REQUEST_TIMEOUT_MS,
    logLevel: e.FANGYAN_LOG_LEVEL,
    trustProxy: e.FANGYAN_TRUST_PROXY,
    openaiApi: e.FANGYAN_OPENAI_API,
    corsOrigins: e.FANGYAN_CORS_ORIGINS ?? [],
    database: parseStoreLocation(e.FANGYAN_DATABASE_URL, path.join(dataDir, "fangyan.db"), cwd),
    redis: e.FANGYAN_REDIS_URL ? { url: e.FANGYAN_REDIS_URL, prefix: e.FANGYAN_REDIS_PREFIX } : undefined,
    s3: e.FANGYAN_S3_BUCKET
      ? {
          bucket: e.FANGYAN_S3_BUCKET,
          prefix: e.FANGYAN_S3_PREFIX,
          region: e.FANGYAN_S3_REGION,
          endpoint: e.FANGYAN_S3_ENDPOINT,
          forcePathStyle: e.FANGYAN_S3_FORCE_PATH_STYLE,
          credentials:
            e.FANGYAN_S3_ACCESS_KEY_ID && e.FANGYAN_S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.FANGYAN_S3_ACCESS_KEY_ID, secretAccessKey: e.FANGYAN_S3_SECRET_ACCESS_KEY }
              : undefined,
          presign: e.FANGYAN_S3_PRESIGN,
        }
      : undefined,
  };
}
