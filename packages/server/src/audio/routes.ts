import fs from "node:fs/promises";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import { DiskAudioStore, isAudioId } from "./disk.js";
import type { S3AudioStore } from "./s3.js";

export interface AudioRoutesOptions {
  store: DiskAudioStore | S3AudioStore;
  retentionMs: number;
}

const NOT_FOUND = { success: false, message: "No such audio, or it has expired" };

function audioIdOf(file: string): string | undefined {
  const id = /^(.+)\.mp3$/.exec(file)?.[1];
  return id && isAudioId(id) ? id : undefined;
}

/**
 * `/audio/<id>.mp3`: a capability URL, no key needed, so that an <audio> tag
 * can play it: `audio/mpeg`, Content-Length, Accept-Ranges, 206 for a Range,
 * long cache headers, and 404 once past the retention period (even before the
 * sweep). Any process of a cluster serves any id when the audio is in S3.
 */
export async function audioRoutes(app: FastifyInstance, options: AudioRoutesOptions): Promise<void> {
  const cacheControl = `public, max-age=${Math.floor(options.retentionMs / 1000)}, immutable`;
  if (options.store instanceof DiskAudioStore) {
    await serveFromDisk(app, options.store, options.retentionMs, cacheControl);
  } else {
    serveFromS3(app, options.store, cacheControl);
  }
}

async function serveFromDisk(app: FastifyInstance, store: DiskAudioStore, retentionMs: number, cacheControl: string): Promise<void> {
  // Range parsing, 206/416, ETag and conditional requests come from @fastify/static.
  await app.register(fastifyStatic, {
    root: store.dir,
    serve: false,
    acceptRanges: true,
    cacheControl: false,
    etag: true,
    lastModified: true,
  });
  app.get<{ Params: { file: string } }>("/:file", async (request, reply) => {
    const id = audioIdOf(request.params.file);
    if (!id) return reply.code(404).send(NOT_FOUND);
    const stat = await fs.stat(store.fileOf(id)).catch(() => undefined);
    if (!stat || Date.now() - stat.mtimeMs > retentionMs) return reply.code(404).send(NOT_FOUND);
    reply.header("Cache-Control", cacheControl);
    reply.header("Content-Type", "audio/mpeg");
    return reply.sendFile(`${id}.mp3`);
  });
}

function serveFromS3(app: FastifyInstance, store: S3AudioStore, cacheControl: string): void {
  // The bucket parses the Range header itself; this route passes it through.
  app.get<{ Params: { file: string } }>("/:file", async (request, reply: FastifyReply) => {
    const id = audioIdOf(request.params.file);
    if (!id) return reply.code(404).send(NOT_FOUND);
    const range = typeof request.headers.range === "string" ? request.headers.range : undefined;
    const read = await store.read(id, range);
    if (read === undefined) return reply.code(404).send(NOT_FOUND);
    if (read === "unsatisfiable")
      return reply.code(416).header("Accept-Ranges", "bytes").send({ success: false, message: "Range not satisfiable" });
    reply.code(read.status);
    reply.header("Content-Type", "audio/mpeg");
    reply.header("Content-Length", read.contentLength);
    reply.header("Accept-Ranges", "bytes");
    reply.header("Cache-Control", cacheControl);
    reply.header("Last-Modified", read.lastModified.toUTCString());
    reply.header("ETag", `"${id}"`);
    if (read.contentRange) reply.header("Content-Range", read.contentRange);
    return reply.send(read.body);
  });
}
