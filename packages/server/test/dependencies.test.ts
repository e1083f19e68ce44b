import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers/processes.js";

type Version = [number, number, number];

function parts(text: string): { version: Version; given: number } {
  const pieces = text
    .replace(/^v/, "")
    .split(".")
    .filter((p) => p !== "" && p !== "x" && p !== "*");
  const numbers = pieces.map(Number);
  return { version: [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0], given: pieces.length };
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** One comparator of an npm range (the forms package manifests use for `engines.node`). */
function admits(comparator: string, node: Version): boolean {
  const match = /^(>=|<=|>|<|\^|~|=)?\s*(.*)$/.exec(comparator.trim());
  const operator = match?.[1] ?? "";
  const { version, given } = parts(match?.[2] ?? "*");
  if (given === 0) return true;
  const order = compare(node, version);
  if (operator === ">=") return order >= 0;
  if (operator === ">") return order > 0;
  if (operator === "<=") return order <= 0;
  if (operator === "<") return order < 0;
  if (operator === "^") return node[0] === version[0] && order >= 0;
  if (operator === "~") return node[0] === version[0] && node[1] === version[1] && order >= 0;
  // "20", "20.x", "=20.1.0": the parts given must match.
  return version.slice(0, given).every((n, i) => node[i] === n);
}

/** npm's range syntax as used in `engines`: alternatives split by ||, comparators by spaces. */
export function satisfies(node: string, range: string): boolean {
  const version = parts(node).version;
  return range.split("||").some((alternative) => {
    const comparators = alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, "$1")
      .split(/\s+/)
      .filter(Boolean);
    return comparators.length === 0 || comparators.every((comparator) => admits(comparator, version));
  });
}

describe("dependencies", () => {
  it("the range check reads npm's forms", () => {
    expect(satisfies("20.19.0", ">=22")).toBe(false);
    expect(satisfies("20.19.0", "^20.19.0 || >=22.12.0")).toBe(true);
    expect(satisfies("20.19.0", "18 || 20 || >=22")).toBe(true);
    expect(satisfies("20.19.0", ">= 14.16")).toBe(true);
    expect(satisfies("20.19.0", "^22.20 || ^24.12 || >=25")).toBe(false);
    expect(satisfies("20.19.0", ">=6 <7 || >=8")).toBe(true);
    expect(satisfies("20.19.0", "*")).toBe(true);
  });

  it("every package npm installs on the project's Node (20.19) admits that Node, so `npm install` warns of no engine", () => {
    const manifest = JSON.parse(readFileSync(`${REPO_ROOT}/package.json`, "utf8")) as { engines: { node: string } };
    const oldest = manifest.engines.node.replace(/^>=\s*/, "");
    const lock = JSON.parse(readFileSync(`${REPO_ROOT}/package-lock.json`, "utf8")) as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    };
    const refusing = Object.entries(lock.packages)
      // Optional packages (prebuilt binaries for other platforms) are skipped by npm where they do not fit.
      .filter(([, entry]) => !entry.optional && !Array.isArray(entry.engines) && entry.engines?.node !== undefined)
      .filter(([, entry]) => {
        const range = (entry.engines as { node: string }).node;
        return !satisfies(oldest, range) || !satisfies(process.version, range);
      })
      .map(([name, entry]) => `${name} (node ${(entry.engines as { node: string }).node})`);
    expect(refusing).toEqual([]);
  });
});
