import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CLI_EXIT, ERROR_CODES, ERROR_STATUS, ERRORS, type ErrorCode, type ErrorDetailsByCode } from "@fangyan/protocol";
import { describe, expect, it } from "vitest";
import { EXIT, exitCodeOf } from "../src/cli/exit-codes.js";
import { describeError } from "../src/cli/messages.js";
import { APIError, apiErrorFor } from "../src/core/errors.js";
import * as sdk from "../src/index.js";

// One table of error codes (packages/protocol/src/errors.ts) serves the server,
// the SDK, `fy`, the console and the OpenAI-compatible endpoint. These tests fail
// when a code exists that the table, the docs or a consumer leaves out.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const SERVICE_SENTENCE = "The service's own sentence.";

// Details as the service sends them.
const DETAILS: { [C in ErrorCode]: ErrorDetailsByCode[C] } = {
  AUTH_ERROR: { server_time_ms: 1_700_000_000_000, max_age_ms: 300_000 },
  MISSING_API_KEY: undefined,
  INVALID_API_KEY: undefined,
  DECRYPTION_FAILED: undefined,
  MISSING_PARAMETER: { missing: ["text"] },
  TEXT_TOO_LONG: { max_chars: 5000, chars: 6000 },
  INSUFFICIENT_BALANCE: { required_cents: 2, available_cents: 1 },
  RATE_LIMIT_EXCEEDED: { limit: 60, window_seconds: 60, retry_after_seconds: 3 },
  TTS_FAILED: undefined,
};

function errorOf(code: ErrorCode) {
  return apiErrorFor(code, SERVICE_SENTENCE, { status: ERRORS[code].status, details: DETAILS[code] }, Date.now());
}

/** Rows of a Markdown table whose first cell is a code in backquotes: code -> the other cells. */
function tableRows(markdown: string, codeColumn: number, isRow: (cells: string[]) => boolean = () => true): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of markdown.split("\n")) {
    if (!line.startsWith("|")) continue;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    const code = /^`([A-Z_]+)`$/.exec(cells[codeColumn] ?? "")?.[1];
    if (code !== undefined && /^[A-Z]+(_[A-Z]+)+$/.test(code) && isRow(cells)) rows.set(code, cells);
  }
  return rows;
}

describe("the table of error codes", () => {
  it("gives every code an HTTP status, an SDK class, an exit code, a console wording and an OpenAI answer", () => {
    for (const code of ERROR_CODES) {
      const spec = ERRORS[code];
      expect(ERROR_STATUS[code]).toBe(spec.status);
      expect(Object.values(CLI_EXIT)).toContain(CLI_EXIT[spec.exit]);
      expect(spec.consoleKey).toMatch(/^err[A-Z]/);
      expect([400, 401, 402, 404, 429, 500, 503]).toContain(spec.openai.status);
    }
  });

  it("answers the OpenAI-compatible endpoint as OpenAI does: 401 key, 402 balance, 429 rate, 400 input, 404 voice, 503 busy", () => {
    for (const code of ["AUTH_ERROR", "MISSING_API_KEY", "INVALID_API_KEY"] as const) expect(ERRORS[code].openai.status).toBe(401);
    expect(ERRORS.INSUFFICIENT_BALANCE.openai.status).toBe(402);
    expect(ERRORS.RATE_LIMIT_EXCEEDED.openai.status).toBe(429);
    for (const code of ["MISSING_PARAMETER", "TEXT_TOO_LONG", "DECRYPTION_FAILED"] as const) expect(ERRORS[code].openai.status).toBe(400);
    expect(ERRORS.TTS_FAILED.openaiWhen.unknownVoice.status).toBe(404);
    expect(ERRORS.TTS_FAILED.openaiWhen.busy.status).toBe(503);
  });

  it("docs/protocol.md's error table lists exactly the codes, with the table's HTTP status", () => {
    const rows = tableRows(fs.readFileSync(path.join(root, "docs/protocol.md"), "utf8"), 0);
    expect([...rows.keys()].sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(rows.get(code)?.[1]).toBe(String(ERRORS[code].status));
  });

  it("the client README's table lists exactly the codes, with the table's class, HTTP status and exit code", () => {
    const rows = tableRows(fs.readFileSync(path.join(root, "packages/client/README.md"), "utf8"), 1, (cells) =>
      /Error`$/.test(cells[0] ?? ""),
    );
    expect([...rows.keys()].sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      const spec = ERRORS[code];
      expect(rows.get(code)).toEqual([
        `\`${spec.sdkClass}\``,
        `\`${code}\``,
        String(spec.status),
        expect.any(String),
        String(CLI_EXIT[spec.exit]),
      ]);
    }
  });
});

describe.each(ERROR_CODES)("%s in every consumer", (code) => {
  const spec = ERRORS[code];

  it("the SDK raises the table's class, exported by @fangyan/client", () => {
    const error = errorOf(code);
    expect(error.name).toBe(spec.sdkClass);
    expect(error.code).toBe(code);
    const exported: unknown = Object.entries(sdk).find(([name]) => name === spec.sdkClass)?.[1];
    expect(typeof exported).toBe("function");
    expect(error instanceof (exported as new (...args: never[]) => unknown)).toBe(true);
  });

  it("fy exits with the table's exit code", () => {
    expect(exitCodeOf(errorOf(code))).toBe(CLI_EXIT[spec.exit]);
    expect(EXIT[spec.exit]).toBe(CLI_EXIT[spec.exit]);
  });

  it("fy has its own wording for it (an APIError of no known class gets only the service's sentence)", () => {
    const baseUrl = "http://127.0.0.1:8080/api/v1";
    const unknownClass = new APIError(SERVICE_SENTENCE, { code, status: spec.status, details: DETAILS[code] });
    expect(describeError(unknownClass, baseUrl)).toBe(SERVICE_SENTENCE);
    expect(describeError(errorOf(code), baseUrl)).not.toBe(SERVICE_SENTENCE);
  });
});
