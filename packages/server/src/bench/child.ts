/**
 * The bench's servers, each in a process of its own (`fork`), so that what is
 * measured of a server (its memory, its event loop, its throughput) is the
 * server's alone and not the load generator's: `service` runs the real
 * service, `bare` a bare Fastify route returning a fixed JSON document.
 *
 * Messages: the child sends `{ type: "ready", address }`; the parent sends
 * "watch" (start recording the event-loop delay), "report" (answered with
 * `{ type: "report", ... }`) and "close".
 */

import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import Fastify from "fastify";
import { parseConfig } from "../config/config.js";
import { startServer } from "../server.js";

export interface ChildReport {
  type: "report";
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  /** The largest RSS of the process since it started (the kernel's VmHWM). */
  peakRssMb: number;
}

/** The kernel's record of the process's largest RSS; elsewhere, the largest sampled. */
function peakRssMb(sampled: number): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (match?.[1]) return Number(match[1]) / 1024;
  } catch {
    // not Linux
  }
  return sampled / 1024 / 1024;
}

async function main(): Promise<void> {
  const role = process.argv[2];
  let address: string;
  let close: () => Promise<void>;
  if (role === "service") {
    const server = await startServer(parseConfig(process.env));
    address = server.address;
    close = () => server.close();
  } else if (role === "bare") {
    const bare = Fastify({ logger: false });
    bare.get("/fixed", async () => ({ success: true, data: { name: "bench", balance_yuan: 1 } }));
    address = await bare.listen({ host: "127.0.0.1", port: 0 });
    close = () => bare.close();
  } else {
    throw new Error(`unknown role ${role}`);
  }

  const delay = monitorEventLoopDelay({ resolution: 1 });
  let sampled = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, process.memoryUsage.rss());
  }, 50);
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
        peakRssMb: peakRssMb(sampled),
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
