import { createRequire } from "node:module";

interface AutocannonResult {
  requests: { average: number; total: number };
  errors: number;
  non2xx: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  workers?: number;
}) => Promise<AutocannonResult>;

// autocannon is CommonJS without type definitions; only this call is used.
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/**
 * Requests per second that `connections` keep-alive connections get from
 * `url`. The load generator runs in its own worker thread, so that it does not
 * share the event loop with the server it measures.
 */
export async function requestsPerSecond(url: string, connections: number, seconds: number, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections, duration: seconds, headers, workers: 1 });
  return { perSecond: result.requests.average, total: result.requests.total, failed: result.errors + result.non2xx };
}

export interface Contender {
  url: string;
  headers?: Record<string, string>;
}

export interface Rounds {
  /** Requests per second of each contender in each round, in the contenders' order. */
  perSecond: number[][];
  failed: number[];
}

/**
 * Each contender measured in turn, `rounds` times over: this machine's speed
 * drifts by a third within minutes, so a ratio is taken within each round
 * (seconds apart) and the median of those is reported, not one long run of
 * each at different times.
 */
export async function interleaved(contenders: Contender[], connections: number, rounds: number, seconds: number): Promise<Rounds> {
  for (const c of contenders) await requestsPerSecond(c.url, connections, 1, c.headers);
  const perSecond = contenders.map(() => [] as number[]);
  const failed = contenders.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    for (const [i, c] of contenders.entries()) {
      const result = await requestsPerSecond(c.url, connections, seconds, c.headers);
      perSecond[i]?.push(result.perSecond);
      failed[i] = (failed[i] ?? 0) + result.failed;
    }
  }
  return { perSecond, failed };
}
