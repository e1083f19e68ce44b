import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, postgresAvailable, REDIS_URL, redisAvailable, redisPrefix, startS3, type TestS3 } from "./helpers/backends.js";
import { freePort, tempDir } from "./helpers/harness.js";
import { fangyan, type Spawned, spawnServer } from "./helpers/processes.js";
import { data, SpecClient, seal } from "./helpers/spec-client.js";

const ready = (await postgresAvailable()) && (await redisAvailable());

/**
 * Two Fangyan processes behind one address space, sharing one PostgreSQL
 * database, one Redis and one S3 bucket, as a cluster behind a load balancer.
 */
describe.runIf(ready)("a cluster of two processes", () => {
  let env: Record<string, string>;
  let nodes: Array<{ server: Spawned; baseUrl: string }>;
  let s3: TestS3;
  let cleanup: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    const database = await createTestDatabase();
    const space = redisPrefix();
    s3 = await startS3();
    cleanup = [space.clear, database.drop, () => s3.close()];
    env = {
      FANGYAN_DATABASE_URL: database.url,
      FANGYAN_REDIS_URL: REDIS_URL,
      FANGYAN_REDIS_PREFIX: space.prefix,
      ...s3.env,
      FANGYAN_DEMO: "0",
      FANGYAN_LOG_LEVEL: "warn",
      FANGYAN_SYNTHESIS_THREADS: "1",
    };
    nodes = [];
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const server = spawnServer({ ...env, FANGYAN_PORT: String(port), FANGYAN_DATA_DIR: await tempDir() });
      nodes.push({ server, baseUrl: `http://127.0.0.1:${port}` });
    }
    await Promise.all(nodes.map((node) => node.server.waitFor(/Fangyan listening on/)));
  }, 120_000);

  afterAll(async () => {
    for (const node of nodes ?? []) {
      node.server.child.kill("SIGTERM");
      await node.server.exited;
    }
    for (const step of cleanup) await step();
  });

  async function customer(yuan: string, perMinute?: number) {
    const created = await fangyan(["admin", "account", "create", "--name", "cluster", "--recharge", yuan, "--json"], env);
    expect(created.stderr).toBe("");
    const { account_id: accountId, api_key: apiKey } = JSON.parse(created.stdout) as { account_id: string; api_key: string };
    if (perMinute) await fangyan(["admin", "account", "set-rate-limit", accountId, "--per-minute", String(perMinute)], env);
    const clients = nodes.map((node) => new SpecClient(node.baseUrl, apiKey));
    return { accountId, apiKey, clients };
  }

  async function ledgerOf(accountId: string) {
    const result = await fangyan(["admin", "ledger", accountId, "--limit", "500", "--json"], env);
    return (JSON.parse(result.stdout) as { entries: Array<{ kind: string; amount_yuan: number }> }).entries;
  }

  it("200 concurrent requests over both processes against a balance for 37: exactly 37 succeed", async () => {
    const { accountId, clients } = await customer("0.37", 10_000);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (clients[i % 2] as SpecClient).tts({ text: `第${i}号`, voice_id: "cmn-female-1" })),
    );
    const succeeded = answers.filter((a) => a.body.success);
    const refused = answers.filter((a) => a.body.error_code === "INSUFFICIENT_BALANCE");
    expect(succeeded).toHaveLength(37);
    expect(refused).toHaveLength(163);
    const account = JSON.parse((await fangyan(["admin", "account", "show", accountId, "--json"], env)).stdout) as { balance_yuan: number };
    expect(account.balance_yuan).toBe(0);
    const ledger = await ledgerOf(accountId);
    expect(ledger.filter((e) => e.kind === "charge")).toHaveLength(37);
    const sumMicro = ledger.reduce((sum, e) => sum + Math.round(e.amount_yuan * 1_000_000), 0);
    expect(sumMicro).toBe(0);
  }, 240_000);

  it("refuses the 61st request of a minute whichever process receives it", async () => {
    const { clients } = await customer("1");
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await (clients[i % 2] as SpecClient).account()).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it("answers an envelope replayed to the other process from the first, charged once", async () => {
    const { clients, apiKey } = await customer("1");
    const [a, b] = clients as [SpecClient, SpecClient];
    const body = JSON.stringify(seal(apiKey, { text: "你好，世界", voice_id: "yue-female-1" }));
    const first = await a.send("POST", "/tts", body);
    const again = await b.send("POST", "/tts", body);
    expect(data(again)).toEqual(data(first));
    expect(data(await b.account())).toMatchObject({ balance_yuan: 0.99 });
    // And at the same moment, on both:
    const racing = JSON.stringify(seal(apiKey, { text: "早晨", voice_id: "yue-male-1" }));
    const both = await Promise.all([a.send("POST", "/tts", racing), b.send("POST", "/tts", racing)]);
    expect(data(both[0])).toEqual(data(both[1]));
    expect(data(await a.account())).toMatchObject({ balance_yuan: 0.98 });
  });

  it("plays an audio URL from either process", async () => {
    const { clients } = await customer("1");
    const { audio_url } = data<{ audio_url: string }>(
      await (clients[0] as SpecClient).tts({ text: "今日天氣好好", voice_id: "yue-female-1" }),
    );
    const [nodeA, nodeB] = nodes;
    if (!nodeA || !nodeB) throw new Error("the cluster has two nodes");
    expect(audio_url.startsWith(`${nodeA.baseUrl}/audio/`)).toBe(true);
    const fromA = new Uint8Array(await (await fetch(audio_url)).arrayBuffer());
    const fromB = await fetch(audio_url.replace(nodeA.baseUrl, nodeB.baseUrl));
    expect(fromB.status).toBe(200);
    expect(new Uint8Array(await fromB.arrayBuffer())).toEqual(fromA);
    expect(fromA.length).toBeGreaterThan(1000);
  });
});
