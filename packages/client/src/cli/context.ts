import { Fangyan } from "../client.js";
import type { CommonArgs } from "./args.js";
import { NoApiKeyError } from "./exit-codes.js";

export interface Output {
  write(text: string): unknown;
}

export interface Terminal extends Output {
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}

/** Everything a command touches outside itself, so that tests can run `fy` in-process. */
export interface Io {
  stdout: Output;
  stderr: Terminal;
  stdin: AsyncIterable<Uint8Array | string> & { isTTY?: boolean | undefined };
  env: Record<string, string | undefined>;
  cwd: string;
}

export function baseUrlOf(io: Io, flag: string | undefined): string | undefined {
  return flag ?? (io.env.FANGYAN_BASE_URL?.trim() || undefined);
}

export function clientFor(io: Io, args: CommonArgs): Fangyan {
  const apiKey = io.env.FANGYAN_API_KEY?.trim();
  if (!apiKey) throw new NoApiKeyError("FANGYAN_API_KEY is not set; export your API key first: export FANGYAN_API_KEY=fy_…");
  return new Fangyan({ apiKey, baseUrl: baseUrlOf(io, args.baseUrl), maxRetries: args.maxRetries });
}

export function printJson(io: Io, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
