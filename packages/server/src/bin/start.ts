/**
 * What `npm start` runs: `fangyan serve` in a process of its own, started
 * with the memory settings of memory/launch.ts (a C library setting and V8
 * flags can only be given to a new process). Signals reach the service as
 * they would reach it directly: a terminal's Ctrl-C goes to both processes,
 * so this one leaves it to the service; SIGTERM and SIGHUP sent to this
 * process alone are passed on. Its exit is the service's.
 */

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serviceEnv, serviceV8Flags } from "../memory/launch.js";

const command = fileURLToPath(new URL("../../bin/fangyan.js", import.meta.url));
const service = spawn(process.execPath, [...serviceV8Flags(process.env.NODE_OPTIONS), command, "serve", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: serviceEnv(process.env),
});
process.on("SIGINT", () => {});
for (const signal of ["SIGTERM", "SIGHUP"] as const) process.on(signal, () => service.kill(signal));
service.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
