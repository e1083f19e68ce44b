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
