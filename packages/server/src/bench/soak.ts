/**
 * The sustained case of the bench: 32 clients speaking 100-character texts,
 * both dialects, for BENCH_SOAK_SECONDS (default 300), with the server's RSS
 * sampled every 10 s; then the RSS after the server has been idle for 15 s.
 * The target: at most 300 MB throughout, and lower again once idle.
 */

import type { BenchServer } from "./fork.js";

export interface SoakResult {
  seconds: number;
  requests: number;
  errors: number;
  /** RSS every 10 s, MB. */
  samples: number[];
  /** The main thread's V8 heap reserved, at the same times, MB. */
  heapSamples: number[];
  peakMb: number;
  endMb: number;
  idleMb: number;
}

export async function soak(
  server: BenchServer,
  clients: number,
  seconds: number,
  speak: (client: number, i: number) => Promise<void>,
): Promise<SoakResult> {
  const samples: number[] = [];
  const heapSamples: number[] = [];
  const sampler = setInterval(() => {
    void server.report().then((report) => {
      samples.push(report.rssMb);
      heapSamples.push(report.heapTotalMb);
    });
  }, 10_000);
  const deadline = Date.now() + seconds * 1000;
  let requests = 0;
  let errors = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; Date.now() < deadline; i++) {
        requests++;
        await speak(client, i).catch(() => {
          errors++;
        });
      }
    }),
  );
  clearInterval(sampler);
  const elapsed = (performance.now() - start) / 1000;
  const end = await server.report();
  await new Promise((resolve) => setTimeout(resolve, 15_000));
  const idle = await server.report();
  return {
    seconds: elapsed,
    requests,
    errors,
    samples,
    heapSamples,
    peakMb: Math.max(end.rssMb, ...samples),
    endMb: end.rssMb,
    idleMb: idle.rssMb,
  };
}
