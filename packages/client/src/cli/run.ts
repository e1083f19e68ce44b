import { readFileSync } from "node:fs";
import { APIError } from "../core/errors.js";
import { isCommand } from "./args.js";
import { account } from "./commands/account.js";
import { PartialRunError, say } from "./commands/say.js";
import { voices } from "./commands/voices.js";
import { baseUrlOf, type Io, printJson } from "./context.js";
import { EXIT, exitCodeOf, UsageError } from "./exit-codes.js";
import { MAIN_HELP } from "./help.js";
import { describeError } from "./messages.js";

const DEFAULT_BASE_URL = "http://127.0.0.1:8080/api/v1";

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
  return manifest.version ?? "unknown";
}

/** The --base-url value, read without a full parse, for error messages only. */
function baseUrlFlag(argv: readonly string[]): string | undefined {
  for (const [i, arg] of argv.entries()) {
    if (arg === "--base-url") return argv[i + 1];
    if (arg.startsWith("--base-url=")) return arg.slice("--base-url=".length);
  }
  return undefined;
}

function report(io: Io, argv: readonly string[], error: unknown): number {
  const partial = error instanceof PartialRunError ? error : undefined;
  const cause = partial ? partial.cause : error;
  const code = exitCodeOf(cause);
  const baseUrl = baseUrlOf(io, baseUrlFlag(argv)) ?? DEFAULT_BASE_URL;
  const line = describeError(cause, baseUrl) + (partial ? `; ${partial.note}` : "");
  if (argv.includes("--json")) {
    const api = cause instanceof APIError ? cause : undefined;
    printJson(io, {
      error: {
        type: cause instanceof Error ? cause.name : "Error",
        code: api?.code ?? null,
        status: api?.status ?? null,
        message: line,
        details: api?.details ?? null,
        request_id: api?.requestId ?? null,
        exit_code: code,
        ...(partial ? { parts_done: partial.done.length, parts: partial.parts, charged_yuan: partial.chargedYuan } : {}),
      },
    });
  } else {
    io.stderr.write(`fy: ${line}\n`);
  }
  return code;
}

/** Runs `fy` with its arguments; resolves to the exit code. */
export async function run(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === "-h" || command === "--help" || command === "help") {
      io.stdout.write(MAIN_HELP);
      return EXIT.ok;
    }
    if (command === "--version") {
      io.stdout.write(`fy ${version()}\n`);
      return EXIT.ok;
    }
    if (!isCommand(command)) throw new UsageError(`Unknown command "${command}"; the commands are say, voices and account (fy --help)`);
    if (command === "say") await say(io, rest);
    else if (command === "voices") await voices(io, rest);
    else await account(io, rest);
    return EXIT.ok;
  } catch (error) {
    return report(io, argv, error);
  }
}
