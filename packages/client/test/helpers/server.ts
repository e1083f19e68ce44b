/**
 * The real Fangyan server, started as its bin runs (`node packages/server/bin/fangyan.js`)
 * on a free port with its own data folder, and its admin command to make customers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
export const FANGYAN_BIN = path.join(REPO_ROOT, "packages/server/bin/fangyan.js");
export const FY_BIN = path.join(REPO_ROOT, "packages/client/bin/fy.js");

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(args: string[], env: Record<string, string>, options: { cwd?: string; input?: string } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, FANGYAN_API_KEY: "", FANGYAN_BASE_URL: "", ...env },
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface Customer {
  accountId: string;
  apiKey: string;
}

export interface RealServer {
  /** The API base URL, ending in /api/v1. */
  baseUrl: string;
  dataDir: string;
  /** A new account with `recharge` yuan (none when "0") and its first key, made by `fangyan admin`. */
  customer(recharge?: string): Promise<Customer>;
  /** `fangyan admin account set-rate-limit ID --per-minute N`. */
  setRateLimit(accountId: string, perMinute: number): Promise<void>;
  close(): Promise<void>;
}

async function waitForHealth(origin: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output()}`);
    const healthy = await fetch(`${origin}/healthz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not become healthy in 30 s:\n${output()}`);
}

export async function startRealServer(env: Record<string, string> = {}): Promise<RealServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "fangyan-client-test-"));
  const port = await freePort();
  const serverEnv = {
    FANGYAN_DATA_DIR: dataDir,
    FANGYAN_PORT: String(port),
    FANGYAN_DEMO: "0",
    FANGYAN_LOG_LEVEL: "silent",
    FANGYAN_SYNTHESIS_THREADS: "1",
    // The error tests fail authentication on purpose more often than the default 30 a minute allows.
    FANGYAN_AUTH_FAILURES_PER_MINUTE: "1000",
    ...env,
  };
  const child = spawn(process.execPath, [FANGYAN_BIN], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...serverEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  let closing = false;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      // A server that dies mid-suite makes every later test fail as "unreachable": say why, once.
      if (!closing) process.stderr.write(`fangyan server exited unexpectedly (${code ?? signal}):\n${output}\n`);
      resolve();
    }),
  );
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(origin, child, () => output);
  } catch (error) {
    closing = true;
    child.kill("SIGKILL");
    throw error;
  }

  const admin = async (args: string[]): Promise<string> => {
    const done = await run([FANGYAN_BIN, "admin", ...args], serverEnv);
    if (done.code !== 0) throw new Error(`fangyan admin ${args.join(" ")} failed (${done.code}): ${done.stderr}`);
    return done.stdout;
  };

  return {
    baseUrl: `${origin}/api/v1`,
    dataDir,
    async customer(recharge = "10") {
      const args = ["account", "create", "--name", "客户", "--json"];
      if (recharge !== "0") args.push("--recharge", recharge);
      const created = JSON.parse(await admin(args)) as { account_id: string; api_key: string };
      return { accountId: created.account_id, apiKey: created.api_key };
    },
    async setRateLimit(accountId, perMinute) {
      await admin(["account", "set-rate-limit", accountId, "--per-minute", String(perMinute), "--json"]);
    },
    async close() {
      closing = true;
      child.kill("SIGTERM");
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
