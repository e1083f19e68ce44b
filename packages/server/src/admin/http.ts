import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { AccountError, type AccountService } from "../accounts/service.js";
import { RATE_WINDOW_MS, type RateLimiter } from "../ratelimit/limiter.js";
import { accountView, keyView, ledgerView } from "./views.js";

export interface AdminRoutesOptions {
  accounts: AccountService;
  adminToken: string | undefined;
  /** Failed token attempts are counted per client address, as failed API keys are. */
  limiter: RateLimiter;
  failuresPerMinute: number;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

const STATUS_BY_KIND = { not_found: 404, invalid: 400, conflict: 409 } as const;

const createBody = z.object({ name: z.string(), recharge_yuan: z.union([z.string(), z.number()]).optional() });
const rechargeBody = z.object({ yuan: z.union([z.string(), z.number()]), note: z.string().max(200).optional() });
const rateLimitBody = z.object({ per_minute: z.number().int().nullable() });
const keyBody = z.object({ key: z.string().min(1) });
const ledgerQuery = z.object({
  limit: z.coerce.number().int().optional(),
  before: z.coerce.number().int().optional(),
});

/**
 * `/admin/v1`: the operator commands over HTTP, plain JSON, behind
 * `Authorization: Bearer $FANGYAN_ADMIN_TOKEN`. Without a token it is off.
 */
export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions): Promise<void> {
  const { accounts, adminToken } = options;
  const expected = adminToken === undefined ? undefined : digest(adminToken);

  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (!expected) {
      return reply.code(404).send({ error: "The admin API is disabled: set FANGYAN_ADMIN_TOKEN to enable it" });
    }
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? "");
    // Compare digests, so the comparison takes the same time whatever the length.
    if (match?.[1] && timingSafeEqual(digest(match[1]), expected)) return;
    // A wrong token: counted per address, so that tokens cannot be guessed at speed.
    const decision = await options.limiter.hit(`admin-fail:${request.ip}`, options.failuresPerMinute, RATE_WINDOW_MS);
    request.log.warn({ address: request.ip, limited: !decision.allowed }, "admin API: a request without a valid admin token");
    if (!decision.allowed) {
      return reply
        .code(429)
        .header("Retry-After", decision.resetSeconds)
        .send({ error: `Too many failed admin token attempts from this address; retry in ${decision.resetSeconds} s` });
    }
    return reply.code(401).header("WWW-Authenticate", "Bearer").send({ error: "A valid admin bearer token is required" });
  });

  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof AccountError) return reply.code(STATUS_BY_KIND[error.kind]).send({ error: error.message });
    if (error instanceof z.ZodError) {
      const problems = error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
      return reply.code(400).send({ error: `Invalid request: ${problems.join("; ")}` });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500) {
      return reply.code(status).send({ error: "Invalid request" });
    }
    request.log.error({ err: error }, "admin request failed");
    return reply.code(500).send({ error: "Internal error" });
  });

  type WithId = { Params: { id: string } };

  app.get("/accounts", async () => ({ accounts: (await accounts.listAccounts()).map(accountView) }));

  app.post("/accounts", async (request, reply) => {
    const body = createBody.parse(request.body ?? {});
    const created = await accounts.createAccount({
      name: body.name,
      ...(body.recharge_yuan === undefined ? {} : { rechargeYuan: body.recharge_yuan }),
    });
    return reply.code(201).send({ ...accountView(created.account), api_key: created.apiKey, key: keyView(created.key) });
  });

  app.get<WithId>("/accounts/:id", async (request) => accountView(await accounts.getAccount(request.params.id)));

  app.post<WithId>("/accounts/:id/recharge", async (request) => {
    const body = rechargeBody.parse(request.body ?? {});
    const { account, entry } = await accounts.recharge(request.params.id, body.yuan, body.note ?? null);
    return { ...accountView(account), entry: ledgerView(entry) };
  });

  app.post<WithId>("/accounts/:id/disable", async (request) => accountView(await accounts.setAccountStatus(request.params.id, "disabled")));
  app.post<WithId>("/accounts/:id/enable", async (request) => accountView(await accounts.setAccountStatus(request.params.id, "active")));

  app.put<WithId>("/accounts/:id/rate-limit", async (request) => {
    const body = rateLimitBody.parse(request.body ?? {});
    return accountView(await accounts.setRateLimit(request.params.id, body.per_minute));
  });

  app.post<WithId>("/accounts/:id/keys", async (request, reply) => {
    const issued = await accounts.issueKey(request.params.id);
    return reply.code(201).send({ ...keyView(issued.key), api_key: issued.apiKey });
  });

  app.get<WithId>("/accounts/:id/keys", async (request) => ({ keys: (await accounts.listKeys(request.params.id)).map(keyView) }));

  app.get<WithId>("/accounts/:id/ledger", async (request) => {
    const query = ledgerQuery.parse(request.query);
    const entries = await accounts.ledger(request.params.id, {
      ...(query.limit === undefined ? {} : { limit: query.limit }),
      ...(query.before === undefined ? {} : { beforeId: query.before }),
    });
    const last = entries[entries.length - 1];
    return { entries: entries.map(ledgerView), next_before: last ? last.id : null };
  });

  // The key goes in the body, never the URL: URLs end up in access logs.
  app.post("/keys/disable", async (request) => keyView(await accounts.setKeyStatus(keyBody.parse(request.body ?? {}).key, "disabled")));
  app.post("/keys/enable", async (request) => keyView(await accounts.setKeyStatus(keyBody.parse(request.body ?? {}).key, "active")));
}
