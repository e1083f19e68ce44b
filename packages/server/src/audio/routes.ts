import { PassThrough } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { audioKeyOfFile, contentTypeOfKey, SIDECARS, sidecarOfKey } from "./ids.js";
import type { AudioInProgress, Production } from "./in-progress.js";
import { parseRange } from "./range.js";
import type { AudioStore } from "./store.js";

/** What became of audio that was charged for but never finished (ProductionKeeper.outcome). */
export type UnfinishedOutcome = "reversed" | "reversal_pending" | undefined;

export interface AudioRoutesOptions {
  store: AudioStore;
  retentionMs: number;
  /** Long texts still being produced by this process, streamed from memory. */
  inProgress?: AudioInProgress;
  /** Whether an id that is not stored is audio that failed after its charge, and where its money is. */
  unfinished?: (id: string) => Promise<UnfinishedOutcome>;
}

export const NOT_FOUND = { success: false, message: "No such audio, or it has expired" };
export const GIVEN_BACK = { success: false, message: "The audio could not be finished; its charge was given back" };
// Said while the reversal is not written yet (a storage fault): never that money came back before it did.
export const GIVING_BACK = {
  success: false,
  message: "The audio could not be finished; its charge will be given back automatically (the ledger shows a reversal once it is)",
};

/**
 * `/audio/<id>.mp3` (or .wav, .pcm, .opus, .flac): a capability URL, no key
 * needed, so that an <audio> tag can play it: the format's Content-Type, Content-Length, Accept-Ranges, 206 for a Range
 * (an unparseable Range is ignored, RFC 9110), ETag and long cache headers,
 * and 404 once past the retention period (even before the sweep). Any process
 * of a cluster serves any id stored in S3; audio still in production is
 * streamed by the process producing it.
 */
export async function audioRoutes(app: FastifyInstance, options: AudioRoutesOptions): Promise<void> {
  const { store, inProgress } = options;
  const cacheControl = `public, max-age=${Math.floor(options.retentionMs / 1000)}, immutable`;

  app.get<{ Params: { file: string } }>("/:file", async (request, reply) => {
    const id = audioKeyOfFile(request.params.file);
    // Beside the audio: its subtitles (`<id>.vtt`, `<id>.srt`) are served like it; its timings are not.
    const sidecar = id === undefined ? undefined : sidecarOfKey(id);
    if (!id || (sidecar && !SIDECARS[sidecar].served)) return reply.code(404).send(NOT_FOUND);
    const streaming = !sidecar && inProgress && answerInProgress(inProgress, id, reply);
    if (streaming) return streaming;

    const etag = `"${id}"`;
    // An id's bytes never change, so its id is its entity tag.
    if (matchesEtag(request, etag)) {
      const stored = await store.exists(id);
      if (stored) return reply.code(304).header("ETag", etag).header("Cache-Control", cacheControl).send();
    }
    const range = rangeToHonour(request, etag);
    const read = await store.read(id, range);
    if (read === undefined) {
      const outcome = sidecar ? undefined : await options.unfinished?.(id);
      if (outcome) return reply.code(410).send(outcome === "reversed" ? GIVEN_BACK : GIVING_BACK);
      return reply.code(404).send(NOT_FOUND);
    }
    if (read === "unsatisfiable") {
      return reply.code(416).header("Accept-Ranges", "bytes").send({ success: false, message: "Range not satisfiable" });
    }
    reply.code(read.status);
    reply.header("Content-Type", contentTypeOfKey(id));
    reply.header("Content-Length", read.contentLength);
    reply.header("Accept-Ranges", "bytes");
    reply.header("Cache-Control", cacheControl);
    reply.header("Last-Modified", read.lastModified.toUTCString());
    reply.header("ETag", etag);
    if (read.contentRange) reply.header("Content-Range", read.contentRange);
    return reply.send(read.body);
  });
}

function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const header = request.headers["if-none-match"];
  if (typeof header !== "string") return false;
  return header.trim() === "*" || header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** The Range to apply: none when it cannot be parsed, or when If-Range names another version. */
function rangeToHonour(request: FastifyRequest, etag: string) {
  const header = request.headers.range;
  const ifRange = request.headers["if-range"];
  if (typeof ifRange === "string" && ifRange.trim() !== etag) return undefined;
  return parseRange(typeof header === "string" ? header : undefined);
}

/**
 * Audio of a long text still being produced: the bytes so far, then the rest
 * as it comes, chunked (its length is not known yet; a Range is answered with
 * the whole). If production fails, the response is cut without its final
 * chunk, so a player sees an error, and the URL answers 410 from then on.
 */
function answerInProgress(inProgress: AudioInProgress, id: string, reply: FastifyReply): FastifyReply | undefined {
  const failure = inProgress.failure(id);
  if (failure) return reply.code(410).send(failure === "reversed" ? GIVEN_BACK : GIVING_BACK);
  const production = inProgress.get(id);
  if (!production) return undefined;
  const body = followProduction(production);
  reply.header("Content-Type", contentTypeOfKey(id));
  // Not the finished file yet: nothing may keep this copy.
  reply.header("Cache-Control", "no-store");
  return reply.send(body);
}

/**
 * The bytes of a production so far, then the rest as they come; destroyed
 * (a chunked response then ends without its final chunk) if it fails.
 */
export function followProduction(production: Production): PassThrough {
  const body = new PassThrough();
  for (const chunk of production.chunks) body.write(chunk);
  const stop = production.follow((event) => {
    if (event.kind === "bytes") body.write(event.bytes);
    else if (event.kind === "end") body.end();
    else body.destroy(new Error("The audio could not be finished"));
  });
  body.on("close", stop);
  return body;
}
