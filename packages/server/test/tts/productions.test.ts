import fs from "node:fs/promises";
import path from "node:path";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../src/accounts/service.js";
import { DiskAudioStore } from "../../src/audio/disk.js";
import { newAudioId } from "../../src/audio/ids.js";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/store/store.js";
import { ProductionKeeper } from "../../src/tts/productions.js";
import { tempDir } from "../helpers/harness.js";

/**
 * Take-overs in a cluster: productions of a process on another host are known
 * only by their heartbeat, and are taken over once it is older than the lease.
 */
describe("the production keeper", () => {
  let dir: string;
  let store: Store;
  let audio: DiskAudioStore;
  let now = 1_000_000;
  let keeper: ProductionKeeper;
  beforeAll(async () => {
    dir = await tempDir();
    store = await openSqliteStore(path.join(dir, "fangyan.db"));
    audio = new DiskAudioStore(path.join(dir, "audio"), "http://127.0.0.1:1/audio");
    await audio.init();
    keeper = new ProductionKeeper({ store, audio, log: Fastify({ logger: false }).log, leaseMs: 30_000, now: () => now });
  });
  afterAll(async () => {
    await store.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function chargedProduction(owner: string, heartbeatAt: number) {
    const created = await new AccountService(store).createAccount({ name: "cluster", rechargeYuan: "1" });
    const audioId = newAudioId();
    const charged = await store.charge({
      accountId: created.account.id,
      keyId: created.key.id,
      costMicro: 600_000,
      rawChars: 3000,
      billableChars: 3000,
      audioId,
      at: heartbeatAt,
      producedBy: owner,
    });
    if (!charged.ok) throw new Error("charge refused");
    return { accountId: created.account.id, audioId };
  }

  it("leaves another host's production alone while its heartbeat is within the lease, and gives its charge back after", async () => {
    const { accountId, audioId } = await chargedProduction("another-host/4242/abcdef", now - 10_000);
    await keeper.tick();
    expect(await store.production(audioId)).toMatchObject({ state: "producing" });
    expect(await keeper.outcome(audioId)).toBeUndefined();

    now += 25_000; // the heartbeat is now 35 s old
    expect(await keeper.outcome(audioId)).toBe("reversal_pending");
    await keeper.tick();
    expect(await store.production(audioId)).toMatchObject({ state: "reversed" });
    expect(await keeper.outcome(audioId)).toBe("reversed");
    expect((await store.getAccount(accountId))?.balanceMicro).toBe(1_000_000);
  });

  it("keeps the charge of a production whose audio was stored whole before its owner went", async () => {
    const { accountId, audioId } = await chargedProduction("another-host/4243/abcdef", now - 60_000);
    await audio.put(audioId, new Uint8Array(2000));
    await keeper.tick();
    expect(await store.production(audioId)).toBeUndefined();
    expect((await store.getAccount(accountId))?.balanceMicro).toBe(400_000);
  });

  it("never takes over its own productions, however old their heartbeat", async () => {
    const { audioId } = await chargedProduction(keeper.owner, now - 3_600_000);
    await keeper.tick();
    expect(await store.production(audioId)).toMatchObject({ state: "producing" });
  });
});
