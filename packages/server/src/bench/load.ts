import { monitorEventLoopDelay } from "node:perf_hooks";

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
  maxRssMb: number;
}

/**
 * `clients` loops, each sending `perClient` requests one after another, while
 * this process (which runs the server) records its event-loop delay and RSS.
 */
export async function underLoad(
  clients: number,
  perClient: number,
  request: (client: number, i: number) => Promise<void>,
): Promise<LoadResult> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let maxRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    maxRss = Math.max(maxRss, process.memoryUsage.rss());
  }, 50);
  let errors = 0;
  const start = performance.now();
  delay.enable();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; i < perClient; i++) {
        await request(client, i).catch(() => {
          errors++;
        });
      }
    }),
  );
  delay.disable();
  clearInterval(sampler);
  return {
    requests: clients * perClient,
    errors,
    seconds: (performance.now() - start) / 1000,
    eventLoopP99Ms: delay.percentile(99) / 1e6,
    eventLoopMaxMs: delay.max / 1e6,
    maxRssMb: maxRss / 1024 / 1024,
  };
}
