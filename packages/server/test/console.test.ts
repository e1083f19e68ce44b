import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../src/config/config.js";
import { audioOriginsOf, consoleRoutes, contentSecurityPolicy, DEFAULT_CONSOLE_DIR } from "../src/console/routes.js";
import { startTestServer, type TestServer, tempDir } from "./helpers/harness.js";

const CONSOLE_BUILT = existsSync(path.join(DEFAULT_CONSOLE_DIR, "index.html"));

const STRICT =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

async function consoleApp(dir: string, audioOrigins: string[] = ["http://localhost:80"]): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(consoleRoutes, { dir, audioOrigins });
  return app;
}

describe("the console's page and assets", () => {
  let dir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = await tempDir("fangyan-console-dist-");
    await fs.mkdir(path.join(dir, "assets"));
    await fs.writeFile(path.join(dir, "index.html"), '<!doctype html><script type="module" src="/assets/index-abc.js"></script>');
    await fs.writeFile(path.join(dir, "assets", "index-abc.js"), "console.log('hi');");
    await fs.writeFile(path.join(dir, "secret.txt"), "not an asset");
    app = await consoleApp(dir);
  });
  afterAll(async () => {
    await app.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("/ is the page, never cached stale, with a strict CSP, nosniff and no referrer", async () => {
    const answer = await app.inject({ url: "/", headers: { host: "localhost:80" } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(answer.body).toContain("/assets/index-abc.js");
    expect(answer.headers["cache-control"]).toBe("no-cache");
    expect(answer.headers["content-security-policy"]).toBe(STRICT);
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(answer.headers["referrer-policy"]).toBe("no-referrer");
  });

  it("hashed assets are cached for a year and carry the same headers", async () => {
    const answer = await app.inject({ url: "/assets/index-abc.js", headers: { host: "localhost:80" } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(answer.headers["content-security-policy"]).toBe(STRICT);
  });

  it("nothing outside assets/ is served: not other files of the build, not a path that climbs out", async () => {
    for (const url of ["/secret.txt", "/assets/../secret.txt", "/assets/%2e%2e%2fsecret.txt", "/assets/missing.js", "/index.html"]) {
      const answer = await app.inject({ url });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.body).not.toContain("not an asset");
    }
  });
});

describe("without a build", () => {
  it("/ says to run npm run build instead of failing, under the same CSP", async () => {
    const empty = await tempDir("fangyan-console-empty-");
    const app = await consoleApp(path.join(empty, "dist"));
    const answer = await app.inject({ url: "/", headers: { host: "localhost:80" } });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(answer.body).toContain("npm run build");
    expect(answer.headers["content-security-policy"]).toBe(STRICT);
    await app.close();
    await fs.rm(empty, { recursive: true, force: true });
  });
});

describe("the policy's audio origins", () => {
  it("an audio host on another origin may be played and downloaded from, and nothing else is added", () => {
    const policy = contentSecurityPolicy("http://127.0.0.1:8080", ["https://cdn.example.com"]);
    expect(policy).toContain("media-src 'self' blob: https://cdn.example.com;");
    expect(policy).toContain("connect-src 'self' https://cdn.example.com;");
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toContain("unsafe");
  });

  it("the page's own origin is not repeated, so a page opened under another name still plays this server's audio", () => {
    expect(contentSecurityPolicy("http://127.0.0.1:8080", ["http://127.0.0.1:8080"])).toBe(STRICT);
    expect(contentSecurityPolicy("http://localhost:8080", ["http://127.0.0.1:8080"])).toContain(
      "media-src 'self' blob: http://127.0.0.1:8080;",
    );
  });

  it("come from the audio host setting, and from the bucket when audio URLs are presigned", () => {
    expect(audioOriginsOf(parseConfig({}))).toEqual(["http://127.0.0.1:8080"]);
    expect(audioOriginsOf(parseConfig({ FANGYAN_AUDIO_BASE_URL: "https://cdn.example.com/tts" }))).toEqual(["https://cdn.example.com"]);
    const bucket = { FANGYAN_S3_BUCKET: "voices", FANGYAN_S3_PRESIGN: "1", FANGYAN_S3_REGION: "cn-north-1" };
    expect(
      audioOriginsOf(parseConfig({ ...bucket, FANGYAN_S3_ENDPOINT: "http://127.0.0.1:9000", FANGYAN_S3_FORCE_PATH_STYLE: "1" })),
    ).toEqual(["http://127.0.0.1:8080", "http://127.0.0.1:9000"]);
    expect(audioOriginsOf(parseConfig({ ...bucket, FANGYAN_S3_ENDPOINT: "https://oss-cn-hangzhou.aliyuncs.com" }))).toContain(
      "https://voices.oss-cn-hangzhou.aliyuncs.com",
    );
  });
});

describe("the service", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ FANGYAN_SYNTHESIS_THREADS: "1" });
  });
  afterAll(() => server.close());

  // The unbuilt case (503 and the build hint) is tested above; the build is part of
  // `npm run build` and in CI it must be there.
  it.skipIf(!CONSOLE_BUILT && process.env.CI !== "true")(
    "serves the console at / beside the API, whose answers keep their own headers",
    async () => {
      const page = await fetch(`${server.baseUrl}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(await page.text()).toContain("<title>方言 · 语音合成控制台</title>");
      expect(page.headers.get("content-security-policy")).toBe(STRICT);
      const api = await fetch(`${server.baseUrl}/api/v1/voices`);
      expect(api.status).toBe(401);
      expect(api.headers.get("content-type")).toContain("application/json");
      expect(api.headers.get("content-security-policy")).toBeNull();
    },
  );
});
