import { run } from "./run.js";

// The exit code is set rather than forced, so that output still being written is not cut off.
process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
