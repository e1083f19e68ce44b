import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../src/config/config.js";
import { startTestServer, type TestServer } from "./helpers/harness.js";
import { data } from "./helpers/spec-client.js";

const PAGE = "http://localhost:5173";
const OTHER = "https://evil.example";

function preflight(baseUrl: string, path: string, origin: string, method = "POST") {
  return fetch(`${baseUrl}${path}`, {
    method: "OPTIONS",
    headers: { Origin: origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": "x-api-key, content-type" },
  });
}

/** Every Access-Control-* header of an answer: a page may read nothing a preflight did not allow. */
function corsHeaders(answer: Response): string[] {
  const names: string[] = [];
  answer.headers.forEach((_value, name) => {
    if (name.startsWith("access-control-")) names.push(name);
  });
  return names;
}

describe("browser pages on a listed origin (FANGYAN_CORS_ORIGINS)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ FANGYAN_CORS_ORIGINS: `${PAGE}, https://app.example.com`, FANGYAN_SYNTHESIS_THREADS: "1" });
  });
  afterAll(() => server.close());

  it("a preflight without a key is answered before the key check, allowing the key and JSON headers", async () => {
    const answer = await preflight(server.baseUrl, "/api/v1/tts", PAGE);
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(answer.headers.get("access-control-allow-methods")).toBe("GET, POST");
    expect(answer.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-api-key");
    expect(answer.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
    expect(answer.headers.get("vary")).toContain("Origin");
  });

  it("answers, errors included, name the page's origin and expose the request id and rate-limit headers", async () => {
    const { client } = await server.newCustomer();
    const ok = await fetch(`${server.baseUrl}/api/v1/voices`, { headers: { Origin: PAGE, "X-API-Key": client.apiKey ?? "" } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(PAGE);
    const exposed = ok.headers.get("access-control-expose-headers") ?? "";
    for (const header of ["X-Request-Id", "RateLimit-Remaining", "Retry-After"]) expect(exposed).toContain(header);

    const refused = await fetch(`${server.baseUrl}/api/v1/account`, { headers: { Origin: PAGE, "X-API-Key": "fy_not_a_key" } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(PAGE);
  });

  it("the audio can be fetched by the page too", async () => {
    const { client } = await server.newCustomer();
    const { audio_url } = data<{ audio_url: string }>(await client.tts({ text: "你好", voice_id: "cmn-female-1" }));
    const audio = await fetch(audio_url, { headers: { Origin: PAGE } });
    expect(audio.status).toBe(200);
    expect(audio.headers.get("access-control-allow-origin")).toBe(PAGE);
  });

  it("an origin that is not listed gets no CORS headers, so its pages cannot read answers", async () => {
    const answer = await preflight(server.baseUrl, "/api/v1/tts", OTHER);
    // Not answered as a preflight: OPTIONS is no route of the API.
    expect(answer.status).toBe(404);
    expect(corsHeaders(answer)).toEqual([]);
    const get = await fetch(`${server.baseUrl}/api/v1/voices`, { headers: { Origin: OTHER, "X-API-Key": "fy_x" } });
    expect(get.status).toBe(401);
    expect(corsHeaders(get)).toEqual([]);
  });

  it("the admin API is never opened to browsers, even for a listed origin", async () => {
    const answer = await preflight(server.baseUrl, "/admin/v1/accounts", PAGE, "GET");
    expect(answer.status).toBe(404);
    expect(corsHeaders(answer)).toEqual([]);
  });
});

describe("without FANGYAN_CORS_ORIGINS", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ FANGYAN_SYNTHESIS_THREADS: "1" });
  });
  afterAll(() => server.close());

  it("no origin is allowed: a preflight is not answered and no CORS header is sent", async () => {
    const answer = await preflight(server.baseUrl, "/api/v1/tts", PAGE);
    expect(answer.status).toBe(404);
    expect(corsHeaders(answer)).toEqual([]);
  });
});

describe("FANGYAN_CORS_ORIGINS parsing", () => {
  it("takes a comma-separated list of exact origins", () => {
    expect(parseConfig({ FANGYAN_CORS_ORIGINS: " https://a.example.com ,http://localhost:5173," }).corsOrigins).toEqual([
      "https://a.example.com",
      "http://localhost:5173",
    ]);
    expect(parseConfig({}).corsOrigins).toEqual([]);
  });

  it.each(["https://a.example.com/", "https://a.example.com/app", "*", "ftp://a.example.com", "a.example.com"])(
    "refuses %s, naming the variable",
    (value) => {
      expect(() => parseConfig({ FANGYAN_CORS_ORIGINS: value })).toThrow(ConfigError);
      expect(() => parseConfig({ FANGYAN_CORS_ORIGINS: value })).toThrow(/FANGYAN_CORS_ORIGINS/);
    },
  );
});
