/**
 * The bench's servers, each in a process of its own (`fork`), so that what is
 * measured of a server (its memory, its event loop, its throughput) is the
 * server's alone and not the load generator's: `service` runs the real
 * service, `bare` a bare Fastify route returning a fixed JSON document, and
 * `uncached` a bare Fastify route doing only the work the interface requires of
 * a GET /account when nothing is kept between requests (see uncachedRoute),
 * and `sealed` a bare Fastify route that only seals a fixed answer (see
 * sealedRoute).
 *
 * Messages: the child sends `{ type: "ready", address }`; the parent sends
 * "watch" (start recording the event-loop delay), "report" (answered with
 * `{ type: "report", ... }`) and "close".
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { deriveEnvelopeKeySync, sealEnvelopeSync } from "@fangyan/protocol/node";
import SQLite from "better-sqlite3";
import Fastify, { type FastifyInstance } from "fastify";
import { keyLookupDigest } from "../accounts/keys.js";
import { accountResult } from "../api/routes.js";
import { parseConfig } from "../config/config.js";
import { startServer } from "../server.js";

export interface ChildReport {
  type: "report";
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  /** The largest RSS of the process since it started (the kernel's VmHWM). */
  peakRssMb: number;
  /** The RSS now. */
  rssMb: number;
  /** The main thread's V8 heap now: reserved, and in use (what the last collection kept, plus garbage since). */
  heapTotalMb: number;
  heapUsedMb: number;
}

/** The kernel's record of the process's largest RSS (Linux), or undefined elsewhere. */
function kernelPeakRssMb(): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
    return match?.[1] ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `GET /uncached`: what the interface makes a GET /account do when nothing is
 * kept between requests (the service keeps keys and balances; api/callers.ts),
 * and nothing else: the envelope key (SHA-256 of the presented key), the lookup digest
 * and one indexed read of the key and its account from the service's own
 * SQLite file, the account as JSON, sealed with AES-256-CBC under a fresh IV,
 * and the three RateLimit headers. No hooks, no rate limit, no request id, no
 * error handling: the bench's "uncached" reference, against which the effect of
 * what the service keeps is read.
 */
function uncachedRoute(app: FastifyInstance, databaseFile: string): void {
  const db = new SQLite(databaseFile, { readonly: true });
  const lookup = db.prepare(
    "SELECT a.name, a.balance_micro, a.total_recharge_micro, a.total_consumed_micro FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.lookup_digest = ?",
  );
  app.get("/uncached", (request, reply) => {
    const key = String(request.headers["x-api-key"]);
    const envelopeKey = deriveEnvelopeKeySync(key);
    const row = lookup.get(keyLookupDigest(key)) as
      | { name: string; balance_micro: number; total_recharge_micro: number; total_consumed_micro: number }
      | undefined;
    const data =
      row &&
      accountResult({
        name: row.name,
        balanceMicro: row.balance_micro,
        totalRechargeMicro: row.total_recharge_micro,
        totalConsumedMicro: row.total_consumed_micro,
      });
    reply.header("RateLimit-Limit", 60).header("RateLimit-Remaining", 59).header("RateLimit-Reset", 60);
    reply.type("application/json; charset=utf-8");
    reply.send(JSON.stringify(sealEnvelopeSync(envelopeKey, { success: true, data })));
  });
}

/**
 * `GET /sealed`: a fixed account answer sealed with AES-256-CBC under a fresh
 * IV, as the interface requires of every answer, and nothing else: no key
 * lookup, no rate limit, no headers. No implementation of the interface can
 * do less per request, so its share of bare Fastify is the most any
 * GET /account can reach on the machine (the bench's "sealed" ceiling).
 */
function sealedRoute(app: FastifyInstance): void {
  const key = deriveEnvelopeKeySync("fy_bench_sealed_reference");
  const data = accountResult({
    name: "bench",
    balanceMicro: 99_999_990_000,
    totalRechargeMicro: 100_000_000_000,
    totalConsumedMicro: 10_000,
  });
  app.get("/sealed", (_request, reply) => {
    reply.type("application/json; charset=utf-8");
    reply.send(JSON.stringify(sealEnvelopeSync(key, { success: true, data })));
  });
}

async function main(): Promise<void> {
  const role = process.argv[2];
  let address: string;
  let close: () => Promise<void>;
  if (role === "service") {
    const server = await startServer(parseConfig(process.env));
    address = server.address;
    close = () => server.close();
  } else if (role === "bare" || role === "uncached" || role === "sealed") {
    const bare = Fastify({ logger: false });
    bare.get("/fixed", async () => ({ success: true, data: { name: "bench", balance_yuan: 1 } }));
    if (role === "uncached") uncachedRoute(bare, path.join(process.env.FANGYAN_DATA_DIR ?? ".", "fangyan.db"));
    if (role === "sealed") sealedRoute(bare);
    address = await bare.listen({ host: "127.0.0.1", port: 0 });
    close = () => bare.close();
  } else {
    throw new Error(`unknown role ${role}`);
  }

  const delay = monitorEventLoopDelay({ resolution: 1 });
  // Off Linux there is no kernel record of the peak, so it is sampled (every 50 ms).
  let sampled = process.memoryUsage.rss();
  const sampler =
    kernelPeakRssMb() === undefined
      ? setInterval(() => {
          sampled = Math.max(sampled, process.memoryUsage.rss());
        }, 50)
      : undefined;
  process.on("message", (message: unknown) => {
    if (message === "watch") {
      delay.reset();
      delay.enable();
    } else if (message === "report") {
      delay.disable();
      const report: ChildReport = {
        type: "report",
        eventLoopP99Ms: delay.percentile(99) / 1e6,
        eventLoopMaxMs: delay.max / 1e6,
        peakRssMb: kernelPeakRssMb() ?? sampled / 1024 / 1024,
        rssMb: process.memoryUsage.rss() / 1024 / 1024,
        heapTotalMb: process.memoryUsage().heapTotal / 1024 / 1024,
        heapUsedMb: process.memoryUsage().heapUsed / 1024 / 1024,
      };
      process.send?.(report);
    } else if (message === "close") {
      clearInterval(sampler);
      void close().then(() => process.exit(0));
    }
  });
  process.send?.({ type: "ready", address });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
