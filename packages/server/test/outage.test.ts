import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAvailable } from "./helpers/backends.js";
import { freePort, startTestServer, type TestServer } from "./helpers/harness.js";
import { data } from "./helpers/spec-client.js";

const ready = await redisAvailable();

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "pipe",
  });
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Ready to accept connections")) resolve();
    });
  });
  return child;
}

/** A Redis of its own that the test can stop, so the shared one is never disturbed. */
describe.runIf(ready)("when Redis goes away", () => {
  let redis: ChildProcess;
  let t: TestServer;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    t = await startTestServer({ FANGYAN_REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    redis?.kill("SIGKILL");
    await t?.close();
  });

  it("answers 503 with Retry-After, charges nothing, and recovers when Redis is back", async () => {
    const { client, accountId } = await t.newCustomer("1");
    expect(data(await client.tts({ text: "你好", voice_id: "cmn-female-1" }))).toMatchObject({ billing: { balance_after_yuan: 0.99 } });

    redis.kill("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const answer of [await client.account(), await client.tts({ text: "你好", voice_id: "cmn-female-1" })]) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("5");
      expect(answer.body).toMatchObject({
        success: false,
        error_code: "TTS_FAILED",
        message: expect.stringMatching(/temporarily unavailable/),
      });
    }
    expect((await t.accounts.getAccount(accountId)).balanceMicro).toBe(990_000);

    redis = await startRedis(port);
    let recovered = 0;
    for (let i = 0; i < 50 && recovered !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recovered = (await client.account()).status;
    }
    expect(recovered).toBe(200);
  }, 30_000);
});
