import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, tempDir } from "./helpers/harness.js";
import { REPO_ROOT, run, type Spawned, START_BIN, spawnServer } from "./helpers/processes.js";
import { SpecClient } from "./helpers/spec-client.js";

const started: Spawned[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) {
    server.child.kill("SIGKILL");
    await server.exited;
  }
});

async function boot(env: Record<string, string> = {}) {
  const dataDir = await tempDir();
  const port = await freePort();
  const server = spawnServer({ FANGYAN_DATA_DIR: dataDir, FANGYAN_PORT: String(port), FANGYAN_SYNTHESIS_THREADS: "1", ...env });
  started.push(server);
  return { server, dataDir, port, baseUrl: `http://127.0.0.1:${port}` };
}

describe("the fangyan process, as a newcomer starts it", () => {
  it("creates a demo account on first start, prints its key once with a first request that works", async () => {
    const { server, dataDir, port, baseUrl } = await boot();
    await server.waitFor(/Fangyan listening on/);
    const [, apiKey] = await server.waitFor(/^\s+(fy_[A-Za-z0-9_-]{32})$/m);
    expect(server.output()).toContain("node examples/first-request.mjs");
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);

    // The example the banner prints, run as printed, from a scratch folder.
    const scratch = await tempDir("fangyan-newcomer-");
    const example = await run(
      process.execPath,
      [path.join(REPO_ROOT, "examples/first-request.mjs"), "你好，世界！", "yue-female-1"],
      {
        FANGYAN_API_KEY: apiKey ?? "",
        FANGYAN_BASE_URL: `${baseUrl}/api/v1`,
      },
      scratch,
    );
    expect(example.stderr).toBe("");
    expect(example.code).toBe(0);
    expect(example.stdout).toMatch(/"audio_url": "http:\/\/127\.0\.0\.1:\d+\/audio\/[A-Za-z0-9_-]{22}\.mp3"/);
    const mp3 = await fs.readFile(path.join(scratch, "first-request.mp3"));
    expect(mp3.length).toBeGreaterThan(1000);

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);

    // A second start on the same data creates nothing and prints no key.
    const again = spawnServer({ FANGYAN_DATA_DIR: dataDir, FANGYAN_PORT: String(port), FANGYAN_SYNTHESIS_THREADS: "1" });
    started.push(again);
    await again.waitFor(/Fangyan listening on/);
    expect(again.output()).not.toMatch(/fy_[A-Za-z0-9_-]{32}/);
  });

  it("FANGYAN_DEMO=0 starts without a demo account", async () => {
    const { server } = await boot({ FANGYAN_DEMO: "0" });
    await server.waitFor(/Fangyan listening on/);
    expect(server.output()).not.toMatch(/fy_[A-Za-z0-9_-]{32}/);
  });

  it("SIGTERM lets a request in flight finish, then exits 0", async () => {
    const { server, baseUrl } = await boot();
    const [, apiKey = ""] = await server.waitFor(/^\s+(fy_[A-Za-z0-9_-]{32})$/m);
    const client = new SpecClient(baseUrl, apiKey);
    // 288 characters: spoken in one synthesis (not streamed), and long enough to still be running.
    const inFlight = client.tts({ text: "今天天气很好，我们去公园散步吧。".repeat(18), voice_id: "cmn-female-1" });
    const [, reqId = ""] = await server.waitFor(/"reqId":"(req_[A-Za-z0-9_-]+)","req":\{"method":"POST","url":"\/api\/v1\/tts"/);
    server.child.kill("SIGTERM");
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
    expect(await server.exited).toBe(0);
    // The premise, from the server's own log: the signal was taken while the request was running.
    const output = server.output();
    const draining = output.indexOf('"signal":"SIGTERM","msg":"draining requests in flight, then exiting"');
    const completed = output.indexOf(`"reqId":"${reqId}","res":{"statusCode":200}`);
    expect(draining).toBeGreaterThan(-1);
    expect(completed).toBeGreaterThan(draining);
  });

  it.each([
    [{ FANGYAN_PORT: "eighty" }, /FANGYAN_PORT/],
    [{ FANGYAN_PORT: "70000" }, /FANGYAN_PORT/],
    [{ FANGYAN_PUBLIC_URL: "example.com" }, /FANGYAN_PUBLIC_URL/],
    [{ FANGYAN_RATE_LIMIT_PER_MINUTE: "0" }, /FANGYAN_RATE_LIMIT_PER_MINUTE/],
    [{ FANGYAN_AUDIO_RETENTION_DAYS: "-1" }, /FANGYAN_AUDIO_RETENTION_DAYS/],
    [{ FANGYAN_ADMIN_TOKEN: "short" }, /FANGYAN_ADMIN_TOKEN/],
  ])("a bad setting stops the start with a message naming it (%o)", async (env, name) => {
    const { server } = await boot(env);
    expect(await server.exited).toBe(1);
    const output = server.output();
    expect(output).toMatch(name);
    expect(output.trim().split("\n")).toHaveLength(1);
    expect(output).not.toContain('short"');
  });

  it("logs requests without API keys, their SHA-256 or the admin token", async () => {
    const adminToken = "log-test-admin-token-9876543210";
    const { server, baseUrl } = await boot({ FANGYAN_ADMIN_TOKEN: adminToken });
    const [, apiKey = ""] = await server.waitFor(/^\s+(fy_[A-Za-z0-9_-]{32})$/m);
    const client = new SpecClient(baseUrl, apiKey);
    expect((await client.tts({ text: "你好", voice_id: "yue-female-1" })).status).toBe(200);
    await new SpecClient(baseUrl, `${apiKey}x`).account();
    await new SpecClient(baseUrl, apiKey).send("POST", "/tts", "not an envelope");
    const disabled = await fetch(`${baseUrl}/admin/v1/keys/disable`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ key: apiKey }),
    });
    expect(disabled.status).toBe(200);
    await server.waitFor(/"url":"\/admin\/v1\/keys\/disable".*\n.*request completed/);
    const logLines = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"));
    expect(logLines.length).toBeGreaterThan(5);
    const logs = logLines.join("\n");
    const sha = createHash("sha256").update(apiKey).digest();
    for (const secret of [apiKey, sha.toString("hex"), sha.toString("base64"), adminToken]) {
      expect(logs).not.toContain(secret);
    }
  });
});

/** The processes whose parent is `pid` (Linux's /proc). */
async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await fs.readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const status = await fs.readFile(`/proc/${entry}/status`, "utf8").catch(() => "");
    if (new RegExp(`^PPid:\\s+${pid}$`, "m").test(status)) children.push(Number(entry));
  }
  return children;
}

describe.runIf(process.platform === "linux")("npm start's launcher (bin/start.js)", () => {
  it("starts fangyan serve with the memory settings, and a SIGTERM to it stops the service cleanly", async () => {
    const dataDir = await tempDir();
    const port = await freePort();
    const launcher = spawnServer({ FANGYAN_DATA_DIR: dataDir, FANGYAN_PORT: String(port), FANGYAN_SYNTHESIS_THREADS: "1" }, START_BIN);
    started.push(launcher);
    await launcher.waitFor(/Fangyan listening on/);
    const [service] = await childrenOf(launcher.child.pid ?? 0);
    if (service === undefined) throw new Error("the launcher started no service process");
    try {
      const argv = (await fs.readFile(`/proc/${service}/cmdline`, "utf8")).split("\0");
      expect(argv).toEqual(expect.arrayContaining(["--max-semi-space-size=4", "--max-old-space-size=256", "serve"]));
      const environ = (await fs.readFile(`/proc/${service}/environ`, "utf8")).split("\0");
      expect(environ).toEqual(expect.arrayContaining(["MALLOC_ARENA_MAX=2", "MALLOC_MMAP_THRESHOLD_=131072"]));
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      launcher.child.kill("SIGTERM");
      expect(await launcher.exited).toBe(0);
      expect(launcher.output()).not.toContain("again, exiting now");
      expect(() => process.kill(service, 0)).toThrow();
    } finally {
      try {
        process.kill(service, "SIGKILL");
      } catch {
        // already gone, as it should be
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
