/**
 * What an operator or an attacker meets first: a first start that fails, the
 * admin command run from the wrong folder, --version, request logs that must
 * not keep secrets or whole audio URLs, admin tokens guessed at speed, and
 * Range headers as RFC 9110 has them.
 */

import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../src/accounts/service.js";
import { defaultDataDir } from "../src/config/config.js";
import { loggableUrl } from "../src/logging.js";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { freePort, startTestServer, type TestServer, tempDir } from "./helpers/harness.js";
import { FANGYAN_BIN, fangyan, run, type Spawned, spawnServer } from "./helpers/processes.js";
import { data } from "./helpers/spec-client.js";

const running: Spawned[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    server.child.kill("SIGKILL");
    await server.exited;
  }
});

describe("a first start", () => {
  it("that fails (its port is taken) creates no demo account, so the next start still shows the demo key", async () => {
    const dataDir = await tempDir();
    const blocker = net.createServer();
    const port = await new Promise<number>((resolve) =>
      blocker.listen(0, "127.0.0.1", () => resolve((blocker.address() as net.AddressInfo).port)),
    );
    const failed = spawnServer({ FANGYAN_DATA_DIR: dataDir, FANGYAN_PORT: String(port), FANGYAN_SYNTHESIS_THREADS: "1" });
    running.push(failed);
    expect(await failed.exited).toBe(1);
    expect(failed.output()).toMatch(/EADDRINUSE/);
    expect(failed.output()).not.toMatch(/fy_[A-Za-z0-9_-]{32}/);
    await new Promise((resolve) => blocker.close(resolve));

    const store = await openSqliteStore(path.join(dataDir, "fangyan.db"));
    expect(await store.countAccounts()).toBe(0);
    await store.close();

    const next = spawnServer({ FANGYAN_DATA_DIR: dataDir, FANGYAN_PORT: String(port), FANGYAN_SYNTHESIS_THREADS: "1" });
    running.push(next);
    await next.waitFor(/^\s+fy_[A-Za-z0-9_-]{32}$/m);
    await fs.rm(dataDir, { recursive: true, force: true });
  });
});

describe("the admin command, run from elsewhere", () => {
  it("refuses to create an empty database where no server keeps its data, and says where to run it", async () => {
    const elsewhere = await tempDir("fangyan-elsewhere-");
    const result = await run(process.execPath, [FANGYAN_BIN, "admin", "account", "list"], { FANGYAN_DATA_DIR: "" }, elsewhere);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no Fangyan database at SQLite ${path.join(elsewhere, "data", "fangyan.db")}`);
    expect(result.stderr).toContain("FANGYAN_DATA_DIR");
    expect(await fs.readdir(elsewhere)).toEqual([]);
    await fs.rm(elsewhere, { recursive: true, force: true });
  });

  it("finds the checkout's data/ from any folder inside the checkout, as the server does", async () => {
    const checkout = await tempDir("fangyan-checkout-");
    await fs.writeFile(path.join(checkout, "package.json"), JSON.stringify({ name: "fangyan", workspaces: ["packages/server"] }));
    const deep = path.join(checkout, "packages", "server");
    await fs.mkdir(deep, { recursive: true });
    expect(defaultDataDir(deep)).toBe(path.join(checkout, "data"));
    expect(defaultDataDir("/")).toBe("/data");

    const store = await openSqliteStore(path.join(checkout, "data", "fangyan.db"));
    const created = await new AccountService(store).createAccount({ name: "found" });
    await store.close();
    const result = await run(process.execPath, [FANGYAN_BIN, "admin", "account", "list", "--json"], { FANGYAN_DATA_DIR: "" }, deep);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({ accounts: [{ account_id: created.account.id, name: "found" }] });
    await fs.rm(checkout, { recursive: true, force: true });
  });

  it("--version prints the version", async () => {
    const manifest = JSON.parse(await fs.readFile(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    const result = await fangyan(["--version"], {});
    expect(result).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
  });
});

describe("request logs", () => {
  it("never keep a query parameter that looks like a token or key, nor a whole audio id", () => {
    const id = "AbCdEfGhIjKlMnOpQrStUv";
    expect(loggableUrl(`/audio/${id}.mp3`)).toBe("/audio/AbCdEf….mp3");
    expect(loggableUrl("/?admin-token=console-browser-test-admin-token")).toBe("/?admin-token=%5Bredacted%5D");
    expect(loggableUrl("/?api-key=fy_abcdefghijklmnopqrstuvwxyz012345")).toBe("/?api-key=%5Bredacted%5D");
    expect(loggableUrl("/?x=fy_abcdefghijklmnopqrstuvwxyz012345&limit=5")).toBe("/?x=%5Bredacted%5D&limit=5");
    expect(loggableUrl("/admin/v1/accounts/acct_1/ledger?limit=50&before=10")).toBe("/admin/v1/accounts/acct_1/ledger?limit=50&before=10");
  });

  it("of a running server hold neither the secrets sent in URLs nor whole audio ids, and note failed admin tokens without them", async () => {
    const dataDir = await tempDir();
    const port = await freePort();
    const server = spawnServer({
      FANGYAN_DATA_DIR: dataDir,
      FANGYAN_PORT: String(port),
      FANGYAN_SYNTHESIS_THREADS: "1",
      FANGYAN_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    running.push(server);
    const [, apiKey = ""] = await server.waitFor(/^\s+(fy_[A-Za-z0-9_-]{32})$/m);
    const base = `http://127.0.0.1:${port}`;
    const token = "a-guessed-admin-token-0123456789";
    const audioId = "ZyXwVuTsRqPoNmLkJiHgFe";
    await fetch(`${base}/?admin-token=${token}`);
    await fetch(`${base}/?api-key=${apiKey}`);
    await fetch(`${base}/audio/${audioId}.mp3`);
    await fetch(`${base}/admin/v1/accounts`, { headers: { Authorization: `Bearer ${token}` } });
    await server.waitFor(/"address":"127.0.0.1".*"msg":"admin API: a request without a valid admin token"/);
    await server.waitFor(/"url":"\/audio\/ZyXwVu….mp3"/);
    const logs = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .join("\n");
    for (const secret of [token, apiKey, audioId]) expect(logs).not.toContain(secret);
    await fs.rm(dataDir, { recursive: true, force: true });
  });
});

const ADMIN_TOKEN = "traps-admin-token-0123456789abcdef";

describe("the admin API against guessing", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ FANGYAN_ADMIN_TOKEN: ADMIN_TOKEN, FANGYAN_AUTH_FAILURES_PER_MINUTE: "5" });
  });
  afterAll(() => t?.close());

  it("limits failed token attempts per address (429 with Retry-After); the right token still works", async () => {
    const attempt = (token: string) => fetch(`${t.baseUrl}/admin/v1/accounts`, { headers: { Authorization: `Bearer ${token}` } });
    for (let i = 0; i < 5; i++) expect((await attempt(`wrong-token-number-${i}-abcdef`)).status).toBe(401);
    const limited = await attempt("wrong-token-number-6-abcdef");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ error: expect.stringContaining("Too many failed admin token attempts") });
    expect((await attempt(ADMIN_TOKEN)).status).toBe(200);
  });
});

describe("Range requests on audio (RFC 9110)", () => {
  let t: TestServer;
  let url: string;
  let size: number;
  beforeAll(async () => {
    t = await startTestServer();
    const { client } = await t.newCustomer("1");
    url = data<{ audio_url: string }>(await client.tts({ text: "你好，世界", voice_id: "cmn-female-1" })).audio_url;
    size = (await (await fetch(url)).arrayBuffer()).byteLength;
  });
  afterAll(() => t?.close());

  const get = (range: string) => fetch(url, { headers: { Range: range } });

  it.each(["bytes=abc", "pages=0-10", "bytes=5-2", "bytes=", "bytes=0-1,5-9"])(
    "an unparseable or multiple Range (%s) is ignored: 200, the whole file",
    async (range) => {
      const response = await get(range);
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBe(size);
    },
  );

  it("a satisfiable range is 206 with its Content-Range; a suffix range takes the end", async () => {
    const first = await get("bytes=0-99");
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-99/${size}`);
    expect((await first.arrayBuffer()).byteLength).toBe(100);
    const last = await get("bytes=-10");
    expect(last.headers.get("content-range")).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    expect((await last.arrayBuffer()).byteLength).toBe(10);
  });

  it("a range past the end is 416", async () => {
    const response = await get(`bytes=${size}-`);
    expect(response.status).toBe(416);
    await response.arrayBuffer();
  });

  it("a matching If-None-Match is 304", async () => {
    const etag = (await fetch(url)).headers.get("etag") ?? "";
    const response = await fetch(url, { headers: { "If-None-Match": etag } });
    expect(response.status).toBe(304);
  });
});
