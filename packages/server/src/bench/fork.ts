import { type ChildProcess, fork } from "node:child_process";
import { serviceEnv, serviceV8Flags } from "../memory/launch.js";
import type { ChildReport } from "./child.js";

export interface BenchServer {
  address: string;
  /** Starts recording the server's event-loop delay. */
  watch(): void;
  report(): Promise<ChildReport>;
  close(): Promise<void>;
}

function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string }) => {
      if (message?.type !== type) return;
      child.off("exit", onExit);
      child.off("message", onMessage);
      resolve(message as T);
    };
    const onExit = (code: number | null) => reject(new Error(`the bench server exited (${code}) before "${type}"`));
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

/**
 * A bench server (child.ts) in its own process, with `env` as its whole
 * environment, started as `npm start` starts the service (memory/launch.ts).
 */
export async function forkServer(role: "service" | "bare" | "uncached" | "sealed", env: Record<string, string> = {}): Promise<BenchServer> {
  const child = fork(new URL("child.js", import.meta.url), [role], {
    env: serviceEnv({ PATH: process.env.PATH ?? "", ...env }),
    execArgv: serviceV8Flags(env.NODE_OPTIONS),
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const { address } = await nextMessage<{ address: string }>(child, "ready");
  return {
    address,
    watch: () => child.send("watch"),
    report() {
      const answer = nextMessage<ChildReport>(child, "report");
      child.send("report");
      return answer;
    },
    close() {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.send("close");
      return exited;
    },
  };
}
