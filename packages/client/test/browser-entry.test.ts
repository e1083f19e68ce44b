import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * "@fangyan/client" must load in a browser: nothing reachable from its entry
 * may import a Node module or use Node globals. Walks the source the build
 * turns 1:1 into dist/, across the two workspace packages it depends on.
 */

const PACKAGES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WORKSPACE: Record<string, string> = {
  "@fangyan/protocol": path.join(PACKAGES, "protocol/src/index.ts"),
  "@fangyan/mp3": path.join(PACKAGES, "mp3/src/index.ts"),
};
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/g;

function reachable(entry: string): { files: string[]; specifiers: string[] } {
  const files = new Set<string>();
  const specifiers = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(IMPORT)) {
      const specifier = match[1] ?? "";
      // Type-only imports vanish from the JavaScript a browser loads.
      if (/^\s*(import|export)\s+type\s/.test(match[0].trim())) continue;
      specifiers.add(specifier);
      if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
      else if (WORKSPACE[specifier]) visit(WORKSPACE[specifier] ?? "");
    }
  };
  visit(entry);
  return { files: [...files], specifiers: [...specifiers] };
}

describe("the browser entry", () => {
  const { files, specifiers } = reachable(path.join(PACKAGES, "client/src/index.ts"));

  it("imports only its own files and the two zero-dependency Fangyan packages", () => {
    for (const walked of ["client/src/client.ts", "client/src/long.ts", "protocol/src/envelope.ts", "mp3/src/join.ts"]) {
      expect(files).toContain(path.join(PACKAGES, walked));
    }
    const external = specifiers.filter((specifier) => !specifier.startsWith("."));
    expect(new Set(external)).toEqual(new Set(["@fangyan/protocol", "@fangyan/mp3"]));
  });

  it("uses no Node global (Buffer, process, require) outside a guarded environment lookup", () => {
    for (const file of files) {
      const code = readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
      expect(code, file).not.toMatch(/\bBuffer\b|\brequire\(|\bprocess\./);
    }
  });

  it("the Node-only helpers and the CLI are not part of it", () => {
    expect(files.some((file) => file.endsWith("node.ts") || file.includes(`${path.sep}cli${path.sep}`))).toBe(false);
  });
});
