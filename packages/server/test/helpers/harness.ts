import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { AccountService } from "../../src/accounts/service.js";
import { parseConfig } from "../../src/config/config.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { openStore } from "../../src/store/open.js";
import type { Store } from "../../src/store/store.js";
import { SpecClient } from "./spec-client.js";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function tempDir(label = "fangyan-test-"): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), label));
}

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  server: RunningServer;
  /** A second connection to the server's database, as the admin command has. */
  store: Store;
  accounts: AccountService;
  /** A fresh account with `yuan` recharged, and a spec-only client holding its key. */
  newCustomer(yuan?: string, name?: string): Promise<{ accountId: string; apiKey: string; client: SpecClient }>;
  close(): Promise<void>;
}

/** The real server on a real port, with its own data dir, as `npm start` builds it. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await tempDir();
  const port = await freePort();
  const config = parseConfig({
    FANGYAN_DATA_DIR: dataDir,
    FANGYAN_PORT: String(port),
    FANGYAN_DEMO: "0",
    FANGYAN_LOG_LEVEL: "silent",
    FANGYAN_SYNTHESIS_THREADS: "2",
    ...env,
  });
  const server = await startServer(config);
  const store = await openStore(config.database);
  const accounts = new AccountService(store);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    dataDir,
    server,
    store,
    accounts,
    async newCustomer(yuan = "10", name = "customer") {
      const created = await accounts.createAccount({ name, rechargeYuan: yuan });
      return { accountId: created.account.id, apiKey: created.apiKey, client: new SpecClient(baseUrl, created.apiKey) };
    },
    async close() {
      await server.close();
      await store.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
