import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
/** The bin exactly as `npx fangyan` runs it (npm test builds dist/ first). */
export const FANGYAN_BIN = path.join(REPO_ROOT, "packages/server/bin/fangyan.js");
/** What `npm start` runs: `fangyan serve` in a child started with the memory settings. */
export const START_BIN = path.join(REPO_ROOT, "packages/server/bin/start.js");

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: string[], env: Record<string, string>, cwd = REPO_ROOT): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export function fangyan(args: string[], env: Record<string, string>): Promise<Finished> {
  return run(process.execPath, [FANGYAN_BIN, ...args], env);
}

export interface Spawned {
  child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

export function spawnServer(env: Record<string, string>, bin = FANGYAN_BIN): Spawned {
  const child = spawn(process.execPath, [bin], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (match) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
  };
}

/** Servers a test started and things it made, stopped and removed after each test (`afterEach(scope.end)`). */
export function testScope() {
  const running: Spawned[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  return {
    running,
    cleanups,
    async end() {
      for (const server of running.splice(0)) {
        server.child.kill("SIGKILL");
        await server.exited;
      }
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
  };
}
