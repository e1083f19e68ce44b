import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isMessageKey } from "../src/i18n/i18n.js";
import { en, zh } from "../src/i18n/messages.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");

function attributeValues(html: string, attribute: string): string[] {
  return [...html.matchAll(new RegExp(`${attribute}="([^"]*)"`, "g"))].map((match) => match[1] ?? "");
}

describe("the page's forms", () => {
  const source = readFileSync(path.join(ROOT, "index.html"), "utf8");

  it("every form posts to the page itself, so that with scripts blocked a key or token typed in never lands in a URL", () => {
    const forms = [...source.matchAll(/<form\b[^>]*>/g)].map((match) => match[0]);
    expect(forms.length).toBeGreaterThanOrEqual(5);
    expect(forms.filter((form) => !/\bmethod="post"/.test(form) || !/\baction="\/"/.test(form))).toEqual([]);
  });
});

describe("the page's strings", () => {
  const source = readFileSync(path.join(ROOT, "index.html"), "utf8");

  it("every string index.html names exists in both languages", () => {
    const keys = ["data-i18n", "data-i18n-label", "data-i18n-placeholder"].flatMap((attribute) => attributeValues(source, attribute));
    expect(keys.length).toBeGreaterThan(50);
    expect(keys.filter((key) => !isMessageKey(key))).toEqual([]);
  });

  it("the Chinese written in index.html, read before the script runs, is the dictionary's", () => {
    const elements = [...source.matchAll(/<(\w+)\b[^>]*\bdata-i18n="(\w+)"[^>]*>([^<]*)<\/\1>/g)];
    expect(elements.length).toBeGreaterThan(50);
    const decode = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    const differing = elements
      .map(([, , key = "", text = ""]) => ({ key, text: decode(text) }))
      .filter(({ key, text }) => !isMessageKey(key) || zh[key] !== text);
    expect(differing).toEqual([]);
  });

  it("no string is empty in either language", () => {
    const keys = Object.keys(zh) as Array<keyof typeof zh>;
    expect(keys.filter((key) => zh[key].trim() === "" || en[key].trim() === "")).toEqual([]);
  });
});

// The build is part of `npm run build`; in CI it must be there.
describe.skipIf(!existsSync(DIST) && process.env.CI !== "true")("the built console", () => {
  it("has no inline script, inline style or style attribute, so the strict CSP needs no exception", () => {
    const html = readFileSync(path.join(DIST, "index.html"), "utf8");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(html).not.toMatch(/<style[\s>]/i);
    expect(html).not.toMatch(/\sstyle="/i);
    expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/style-[\w-]+\.css">/);
  });

  it("bundles no Node module and no eval, so it runs in any browser under script-src 'self'", () => {
    const scripts = readdirSync(path.join(DIST, "assets")).filter((name) => name.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const code = readFileSync(path.join(DIST, "assets", name), "utf8");
      expect(code).not.toMatch(/["']node:[a-z_]+["']/);
      expect(code).not.toMatch(/\bnew Function\(|\beval\(/);
    }
  });
});
