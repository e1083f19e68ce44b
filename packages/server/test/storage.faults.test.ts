/**
 * Storage faults are told truthfully: a full disk refuses new paid work up
 * front; audio that cannot be stored after its charge has the charge given
 * back; a reversal that cannot be written is retried until it is, and until
 * then nobody is told the money came back. On a real full filesystem (a
 * tmpfs, where the test may mount one) with real server processes, and with
 * injected ENOSPC/EROFS everywhere.
 */

import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { AccountService } from "../src/accounts/service.js";
import { DiskAudioStore } from "../src/audio/disk.js";
import { newAudioId } from "../src/audio/ids.js";
import type { AudioStore } from "../src/audio/store.js";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { Store } from "../src/store/store.js";
import { mountSmallDisk, type SmallDisk } from "./helpers/full-disk.js";
import { freePort, tempDir } from "./helpers/harness.js";
import { longText, moneyHolds, until } from "./helpers/money.js";
import { spawnServer, testScope } from "./helpers/processes.js";
import { data, SpecClient } from "./helpers/spec-client.js";
import { audioIdOf, serviceRig, ttsParams } from "./helpers/tts-service.js";

/** Long enough to stream, and to take a few seconds after its first part: time to fill the disk. */
const LONG = longText(1500);
const SLOW = { timeout: 180_000 };

/** What the audio URL says now: its status and message. */
async function audioSays(url: string): Promise<{ status: number; message: string }> {
  const response = await fetch(url);
  if (response.status === 200) {
    // Audio still in production streams until it ends, or is cut when production fails.
    const whole = await response.arrayBuffer().then(
      () => true,
      () => false,
    );
    return { status: whole ? 200 : 0, message: whole ? "" : "cut" };
  }
  const body = (await response.json()) as { message?: string };
  return { status: response.status, message: body.message ?? "" };
}

describe("on a real full filesystem (tmpfs), with real server processes", SLOW, async () => {
  const disk: SmallDisk | undefined = await mountSmallDisk(24);
  const { running, cleanups, end } = testScope();
  afterEach(async () => {
    await end();
    await disk?.free();
    for (const name of await fs.readdir(disk?.dir ?? "/nonexistent").catch(() => [])) {
      await fs.rm(path.join(disk?.dir ?? "", name), { recursive: true, force: true });
    }
  });
  afterAll(() => disk?.unmount());

  async function boot(env: Record<string, string>) {
    const port = await freePort();
    const server = spawnServer({ FANGYAN_PORT: String(port), FANGYAN_DEMO: "0", FANGYAN_SYNTHESIS_THREADS: "1", ...env });
    running.push(server);
    await server.waitFor(/Fangyan listening on/);
    return { server, baseUrl: `http://127.0.0.1:${port}` };
  }

  async function customer(databaseFile: string, baseUrl: string) {
    const store = await openSqliteStore(databaseFile);
    cleanups.push(() => store.close());
    const created = await new AccountService(store).createAccount({ name: "disk", rechargeYuan: "10" });
    return { store, accountId: created.account.id, client: new SpecClient(baseUrl, created.apiKey) };
  }

  it.runIf(disk)("below the free-space threshold, new paid work is refused up front and not charged, and /healthz says why", async () => {
    if (!disk) return;
    const { baseUrl } = await boot({ FANGYAN_DATA_DIR: disk.dir, FANGYAN_MIN_FREE_MB: "4" });
    const { store, accountId, client } = await customer(path.join(disk.dir, "fangyan.db"), baseUrl);
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);

    await disk.fill(2 * 1024 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the free space is read at most once a second
    const refused = await client.tts({ text: "你好", voice_id: "cmn-female-1" });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ success: false, error_code: "TTS_FAILED", message: expect.stringContaining("storage is full") });
    const health = await fetch(`${baseUrl}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: "storage_full", min_free_bytes: 4 * 1024 * 1024 });
    expect((await moneyHolds(store, accountId)).ledger.map((e) => e.kind)).toEqual(["recharge"]);

    await disk.free();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    data(await client.tts({ text: "你好", voice_id: "cmn-female-1" }));
    expect((await moneyHolds(store, accountId)).ledger.map((e) => e.kind)).toEqual(["charge", "recharge"]);
  });

  it.runIf(disk)(
    "audio that cannot be written after its charge (ENOSPC) has the charge given back, leaves no temporary file, and the log says why",
    async () => {
      if (!disk) return;
      const elsewhere = await tempDir();
      cleanups.push(() => fs.rm(elsewhere, { recursive: true, force: true }));
      const databaseFile = path.join(elsewhere, "fangyan.db");
      const { server, baseUrl } = await boot({
        FANGYAN_DATA_DIR: disk.dir,
        FANGYAN_DATABASE_URL: `sqlite:${databaseFile}`,
        FANGYAN_MIN_FREE_MB: "0",
      });
      const { store, accountId, client } = await customer(databaseFile, baseUrl);

      const answer = data<{ audio_url: string }>(await client.tts({ text: LONG, voice_id: "cmn-female-1" }));
      const id = audioIdOf(answer.audio_url);
      expect((await store.production(id))?.state).toBe("producing");
      await disk.fill(0);

      const said = await until("the URL to say what happened", async () => {
        const now = await audioSays(answer.audio_url);
        return now.status === 410 ? now : undefined;
      });
      expect(said.message).toContain("its charge was given back");
      const { account, ledger } = await moneyHolds(store, accountId);
      expect(ledger.map((e) => e.kind)).toEqual(["reversal", "charge", "recharge"]);
      expect(account.balanceMicro).toBe(10_000_000);
      expect((await fs.readdir(path.join(disk.dir, "audio"))).filter((name) => name.endsWith(".tmp"))).toEqual([]);
      expect(server.output()).toContain("ENOSPC");
    },
  );

  it.runIf(disk)("with the database on the full disk too, the URL never says the money came back before the ledger does", async () => {
    if (!disk) return;
    const { server, baseUrl } = await boot({ FANGYAN_DATA_DIR: disk.dir, FANGYAN_MIN_FREE_MB: "0", FANGYAN_PRODUCTION_LEASE_SECONDS: "3" });
    const { store, accountId, client } = await customer(path.join(disk.dir, "fangyan.db"), baseUrl);

    const answer = data<{ audio_url: string }>(await client.tts({ text: LONG, voice_id: "cmn-female-1" }));
    await disk.fill(0);
    const said = await until("the URL to say what happened", async () => {
      const now = await audioSays(answer.audio_url);
      return now.status === 410 ? now : undefined;
    });
    // SQLite cannot grow its write-ahead log on a full tmpfs: the reversal waits, and the URL says so.
    expect(said.message).toContain("will be given back");
    expect((await store.ledger(accountId, { limit: 10 })).map((e) => e.kind)).toEqual(["charge", "recharge"]);
    // The real cause reaches the log, not the failed ROLLBACK that used to hide it.
    expect(server.output()).toContain("SQLITE_FULL");
    expect(server.output()).not.toContain("cannot rollback");
    await disk.free();
    await until("the reversal", async () =>
      (await store.ledger(accountId, { limit: 10 })).some((e) => e.kind === "reversal") ? true : undefined,
    );
    expect((await audioSays(answer.audio_url)).message).toContain("its charge was given back");
    const { account } = await moneyHolds(store, accountId);
    expect(account.balanceMicro).toBe(10_000_000);
  });
});

/** ENOSPC or EROFS, as Node reports them. */
function fault(code: "ENOSPC" | "EROFS" | "SQLITE_FULL"): Error {
  return Object.assign(new Error(`${code}: injected by the test`), { code });
}

describe("with injected storage faults", SLOW, () => {
  it.each(["ENOSPC", "EROFS"] as const)(
    "a reversal that cannot be written (%s) is retried until it is; meanwhile the URL says it will be given back",
    async (code) => {
      let storeFails = true;
      let audioFails = true;
      const faulty = await serviceRig(
        {},
        {
          store: (real) => {
            const failing: Store = Object.create(real);
            failing.reverseProduction = (audioId, at) =>
              storeFails ? Promise.reject(fault("SQLITE_FULL")) : real.reverseProduction(audioId, at);
            return failing;
          },
          audio: (real) => {
            const failing: AudioStore = Object.create(real);
            failing.put = (id, mp3) => (audioFails ? Promise.reject(fault(code)) : real.put(id, mp3));
            return failing;
          },
        },
      );
      try {
        const owner = await faulty.owner("10");
        const result = await faulty.service.speak(owner, ttsParams(LONG));
        const id = audioIdOf(result.audio_url);
        await until("the production to fail", async () => (faulty.inProgress.failure(id) === "reversal_pending" ? true : undefined));
        const pending = await audioSays(faulty.audioUrl(id));
        expect(pending).toEqual({ status: 410, message: expect.stringContaining("will be given back") });
        expect((await faulty.store.ledger(owner.account.id, { limit: 10 })).map((e) => e.kind)).toEqual(["charge", "recharge"]);
        await faulty.productions.tick();
        expect((await faulty.store.ledger(owner.account.id, { limit: 10 })).map((e) => e.kind)).toEqual(["charge", "recharge"]);

        storeFails = false;
        audioFails = false;
        await faulty.productions.tick();
        expect(faulty.inProgress.failure(id)).toBe("reversed");
        expect(await audioSays(faulty.audioUrl(id))).toEqual({
          status: 410,
          message: expect.stringContaining("its charge was given back"),
        });
        const { account, ledger } = await moneyHolds(faulty.store, owner.account.id);
        expect(ledger.map((e) => e.kind)).toEqual(["reversal", "charge", "recharge"]);
        expect(account.balanceMicro).toBe(10_000_000);
      } finally {
        await faulty.close();
      }
    },
  );

  it("a failed write of an audio file removes its temporary file", async () => {
    const dir = await tempDir();
    const store = new DiskAudioStore(dir, "http://127.0.0.1:1/audio");
    await store.init();
    const id = newAudioId();
    // The rename cannot replace a directory: the write itself succeeded, the store must still clean up.
    await fs.mkdir(path.join(dir, `${id}.mp3`));
    await expect(store.put(id, new Uint8Array(1000))).rejects.toThrow();
    expect((await fs.readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    await fs.rm(dir, { recursive: true, force: true });
  });
});
