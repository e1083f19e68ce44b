import { spawnSync } from "node:child_process";

/**
 * Whether a program the tests use as an independent check (OpenSSL, Python's
 * `cryptography`, Debian's `lame`) can run here. Where it cannot, its checks
 * are skipped with a message, except with CI=true, where the run fails:
 * `.ci/run` installs every one of them.
 */
export function toolAvailable(name: string, command: string, args: string[]): boolean {
  if (spawnSync(command, args).status === 0) return true;
  if (process.env.CI === "true") throw new Error(`CI=true needs ${name}; .ci/run installs it`);
  console.warn(`${name} is not available: skipping the checks that need it`);
  return false;
}
