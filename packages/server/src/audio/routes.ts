import fs from "node:fs/promises";
import { PassThrough } from "node:stream";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import { DiskAudioStore, isAudioId } from "./disk.js";
import type { AudioInProgress } from "./in-progress.js";
import type { S3AudioStore } from "./s3.js";

export interface AudioRoutesOptions {
  store: DiskAudioStore | S3AudioStore;
  retentionMs: number;
  /** Long texts still being produced by this process, streamed from memory. */
  inProgress?: AudioInProgress;
}

const NOT_FOUND = { success: false, message: "No such audio, or it has expired" };
const FAILED = { success: false, message: "The audio could not be finished; its charge was given back" };

function audioIdOf(file: string): string | undefined {
  const id = /^(.+)\.mp3$/.exec(file)?.[1];
  return id && isAudioId(id) ? id : undefined;
}

/**
 * `/audio/<id>.mp3`: a capability URL, no key needed, so that an <audio> tag
 * can play it: `audio/mpeg`, Content-Length, Accept-Ranges, 206 for a Range,
 * long cache headers, and 404 once past the retention period (even before the
 * sweep). Any process of a cluster serves any id when the audio is in S3;
 * audio still in production is streamed by the process producing it.
 */
export async function audioRoutes(app: FastifyInstance, options: AudioRoutesOptions): Promise<void> {
  const cacheControl = `public, max-age=${Math.floor(options.retentionMs / 1000)}, immutable`;
  if (options.store instanceof DiskAudioStore) {
    await serveFromDisk(app, options.store, options.retentionMs, cacheControl, options.inProgress);
  } else {
    serveFromS3(app, options.store, cacheControl, options.inProgress);
  }
}

/**
 * Audio of a long text still being produced: the bytes so far, then the rest
 * as it comes, chunked (its length is not known yet; a Range is answered with
 * the whole). If production fails, the response is cut without its final
 * chunk, so a player sees an error, and the URL answers 410 from then on.
 */
function answerInProgress(inProgress: AudioInProgress | undefined, id: string, reply: FastifyReply): FastifyReply | undefined {
  if (!inProgress) return undefined;
  if (inProgress.failed(id)) return reply.code(410).send(FAILED);
  const production = inProgress.get(id);
  if (!production) return undefined;
  const body = new PassThrough();
  for (const chunk of production.chunks) body.write(chunk);
  const stop = production.follow((event) => {
    if (event.kind === "bytes") body.write(event.bytes);
    else if (event.kind === "end") body.end();
    else body.destroy(new Error("The audio could not be finished"));
  });
  body.on("close", stop);
  reply.header("Content-Type", "audio/mpeg");
  // Not the finished file yet: nothing may keep this copy.
  reply.header("Cache-Control", "no-store");
  return reply.send(body);
}

async function serveFromDisk(
  app: FastifyInstance,
  store: DiskAudioStore,
  retentionMs: number,
  cacheControl: string,
  inProgress: AudioInProgress | undefined,
): Promise<void> {
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
    const streaming = answerInProgress(inProgress, id, reply);
    if (streaming) return streaming;
    const stat = await fs.stat(store.fileOf(id)).catch(() => undefined);
    if (!stat || Date.now() - stat.mtimeMs > retentionMs) return reply.code(404).send(NOT_FOUND);
    reply.header("Cache-Control", cacheControl);
    reply.header("Content-Type", "audio/mpeg");
    return reply.sendFile(`${id}.mp3`);
  });
}

function serveFromS3(app: FastifyInstance, store: S3AudioStore, cacheControl: string, inProgress: AudioInProgress | undefined): void {
  // The bucket parses the Range header itself; this route passes it through.
  app.get<{ Params: { file: string } }>("/:file", async (request, reply: FastifyReply) => {
    const id = audioIdOf(request.params.file);
    if (!id) return reply.code(404).send(NOT_FOUND);
    const streaming = answerInProgress(inProgress, id, reply);
    if (streaming) return streaming;
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
