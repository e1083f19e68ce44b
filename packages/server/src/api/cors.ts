import type { FastifyInstance } from "fastify";

// What a browser page needs: the two methods, the key and JSON body headers
// (and Range for audio); and to read the request id and rate-limit headers.
const ALLOW_METHODS = "GET, POST";
const ALLOW_HEADERS = "X-API-Key, Content-Type, Range";
const EXPOSE_HEADERS = "X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Content-Range, Accept-Ranges";
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Only the customer API and the audio; the admin API stays closed to browsers. */
function isPublicPath(url: string): boolean {
  return url.startsWith("/api/") || url.startsWith("/audio/");
}

/**
 * Cross-origin access for web pages on the listed origins (exact matches,
 * like "https://app.example.com"), so that the client SDK can run in a page
 * served from elsewhere. With no origins listed nothing is added: browsers
 * then only let pages on the service's own origin call it.
 *
 * The answer to a preflight comes here, before the API's key check, because
 * browsers send preflights without the key.
 */
export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  app.addHook("onRequest", async (request, reply) => {
    if (!isPublicPath(request.url)) return;
    // Caches must keep answers for different origins apart.
    reply.header("Vary", "Origin");
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return;
    reply.header("Access-Control-Allow-Origin", origin);
    reply.header("Access-Control-Expose-Headers", EXPOSE_HEADERS);
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined) {
      reply.header("Access-Control-Allow-Methods", ALLOW_METHODS);
      reply.header("Access-Control-Allow-Headers", ALLOW_HEADERS);
      reply.header("Access-Control-Max-Age", PREFLIGHT_MAX_AGE_SECONDS);
      await reply.code(204).send();
      return reply;
    }
  });
}
