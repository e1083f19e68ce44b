import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../config/config.js";

/** packages/console/dist, the same number of levels up from src/console and dist/console. */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL("../../../console/dist/", import.meta.url));

export interface ConsoleRoutesOptions {
  /** The built console; default packages/console/dist. */
  dir?: string;
  /** Origins that serve audio (the audio host, a presigning bucket); the page plays and downloads from them. */
  audioOrigins: readonly string[];
}

// Vite names every asset with a content hash: safe to cache for a year.
const ASSET_CACHE = "public, max-age=31536000, immutable";
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

const NOT_BUILT = [
  "The Fangyan web console has not been built.",
  "Run `npm run build` (or `npm start`, which builds first), then restart the server.",
  "",
  "网页控制台尚未构建：请运行 npm run build（或 npm start，它会先构建），然后重启服务。",
  "",
].join("\n");

/**
 * The policy of every console response. No inline script or style and no
 * eval anywhere; the page talks only to its own origin, plus the audio
 * origins for <audio> and the download of a clip; it cannot be framed.
 */
export function contentSecurityPolicy(pageOrigin: string, audioOrigins: readonly string[]): string {
  const extra = [...new Set(audioOrigins)].filter((origin) => origin !== pageOrigin);
  const withAudio = (sources: string) => [sources, ...extra].join(" ");
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `media-src ${withAudio("'self' blob:")}`,
    `connect-src ${withAudio("'self'")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join("; ");
}

/**
 * Where audio URLs point: the audio host (FANGYAN_AUDIO_BASE_URL, by default
 * this server's /audio), and with FANGYAN_S3_PRESIGN the bucket itself,
 * addressed as the AWS SDK addresses it (path style on the endpoint, else a
 * bucket subdomain).
 */
export function audioOriginsOf(config: Pick<Config, "audioBaseUrl" | "s3">): string[] {
  const origins = [new URL(config.audioBaseUrl).origin];
  const s3 = config.s3;
  if (s3?.presign) {
    if (s3.endpoint) {
      const endpoint = new URL(s3.endpoint);
      origins.push(s3.forcePathStyle ? endpoint.origin : `${endpoint.protocol}//${s3.bucket}.${endpoint.host}`);
    } else {
      // Buckets whose names cannot be a host name are addressed path style by the SDK.
      origins.push(`https://${s3.bucket}.s3.${s3.region}.amazonaws.com`, `https://s3.${s3.region}.amazonaws.com`);
    }
  }
  return origins;
}

function pageOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * The web console at `/` (packages/console, built by `npm run build`): its
 * page and its hashed assets under /assets/, with a strict CSP. Without a
 * build, `/` says how to make one instead of failing.
 */
export async function consoleRoutes(app: FastifyInstance, options: ConsoleRoutesOptions): Promise<void> {
  const dir = options.dir ?? DEFAULT_CONSOLE_DIR;

  // Only the routes of this plugin: the API and the audio keep their own headers.
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("Content-Security-Policy", contentSecurityPolicy(pageOrigin(request), options.audioOrigins));
    reply.header("X-Content-Type-Options", "nosniff");
    reply.header("Referrer-Policy", "no-referrer");
    done(null, payload);
  });

  if (!existsSync(path.join(dir, "index.html"))) {
    app.get("/", async (_request, reply) =>
      reply.code(503).type("text/plain; charset=utf-8").header("Cache-Control", "no-store").send(NOT_BUILT),
    );
    return;
  }

  await app.register(fastifyStatic, { root: dir, serve: false, index: false, etag: true, lastModified: true, cacheControl: false });

  // Every form of the page posts here when its script is blocked (it never submits them
  // itself): a secret typed into one then travels in a body that nothing logs, never in a URL.
  // The body is not even read; the page is shown again.
  app.addContentTypeParser("application/x-www-form-urlencoded", (_request, payload, done) => {
    payload.resume();
    done(null, undefined);
  });
  app.post("/", async (_request, reply) => reply.code(303).header("Location", "/").header("Cache-Control", "no-store").send());

  // Always revalidated, so that a new build's asset names are picked up at once.
  app.get("/", async (_request, reply) => reply.header("Cache-Control", "no-cache").sendFile("index.html"));

  app.get<{ Params: { "*": string } }>("/assets/*", async (request, reply) => {
    const name = request.params["*"];
    if (!ASSET_NAME.test(name)) return reply.code(404).type("text/plain; charset=utf-8").send("Not found");
    return reply.header("Cache-Control", ASSET_CACHE).sendFile(path.posix.join("assets", name));
  });
}
