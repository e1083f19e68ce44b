import fs from "node:fs/promises";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { type DiskAudioStore, isAudioId } from "./disk.js";

export interface AudioRoutesOptions {
  store: DiskAudioStore;
  retentionMs: number;
}

/**
 * `/audio/<id>.mp3`: a capability URL, no key needed, so that an <audio> tag
 * can play it. Range requests (206), Content-Length and caching come from
 * @fastify/static; a file past its retention answers 404 even before the sweep.
 */
export async function audioRoutes(app: FastifyInstance, options: AudioRoutesOptions): Promise<void> {
  const maxAgeSeconds = Math.floor(options.retentionMs / 1000);
  await app.register(fastifyStatic, {
    root: options.store.dir,
    serve: false,
    acceptRanges: true,
    cacheControl: false,
    etag: true,
    lastModified: true,
  });

  const notFound = { success: false, message: "No such audio, or it has expired" };

  app.get<{ Params: { file: string } }>("/:file", async (request, reply) => {
    const match = /^(.+)\.mp3$/.exec(request.params.file);
    const id = match?.[1];
    if (!id || !isAudioId(id)) return reply.code(404).send(notFound);
    const stat = await fs.stat(options.store.fileOf(id)).catch(() => undefined);
    if (!stat || Date.now() - stat.mtimeMs > options.retentionMs) return reply.code(404).send(notFound);
    // The content of an id never changes, so it may be cached for as long as it lives.
    reply.header("Cache-Control", `public, max-age=${maxAgeSeconds}, immutable`);
    reply.header("Content-Type", "audio/mpeg");
    return reply.sendFile(`${id}.mp3`);
  });
}
