import { describe, expect, it } from "vitest";
import { deriveEnvelopeKey, EnvelopeError, openEnvelope, sealEnvelope } from "../src/index.js";
import { deriveEnvelopeKeySync, openEnvelopeSync, pooledRandomBytes, sealEnvelopeSync } from "../src/node.js";
import { hexToBytes, loadEnvelopeVectors } from "./vectors/envelope-vectors.js";

const { api_key: API_KEY, aes_key_hex: AES_KEY_HEX, vectors } = loadEnvelopeVectors();

describe("the node:crypto envelope (@fangyan/protocol/node)", () => {
  it("derives SHA-256 of the key as the AES key", () => {
    expect(deriveEnvelopeKeySync(API_KEY).aesKey.toString("hex")).toBe(AES_KEY_HEX);
  });

  it.each(vectors)("matches the OpenSSL vector both ways: $name", (vector) => {
    const key = deriveEnvelopeKeySync(API_KEY);
    expect(sealEnvelopeSync(key, JSON.parse(vector.plaintext), { iv: hexToBytes(vector.iv_hex), timestamp: 7 })).toEqual({
      encryptedData: vector.encryptedData,
      iv: vector.iv,
      timestamp: 7,
    });
    expect(openEnvelopeSync(key, { encryptedData: vector.encryptedData, iv: vector.iv, timestamp: 7 })).toEqual(
      JSON.parse(vector.plaintext),
    );
  });

  it("opens what WebCrypto sealed and the other way round", async () => {
    const payload = { text: "𠮷野家，粤語同普通话", speed: 1.5 };
    const webKey = await deriveEnvelopeKey(API_KEY);
    const nodeKey = deriveEnvelopeKeySync(API_KEY);
    expect(openEnvelopeSync(nodeKey, await sealEnvelope(webKey, payload))).toEqual(payload);
    expect(await openEnvelope(webKey, sealEnvelopeSync(nodeKey, payload))).toEqual(payload);
  });

  it("derives the same key as WebCrypto from a key that is not ASCII (UTF-8, both)", async () => {
    const apiKey = "fy_密钥_ключ";
    const payload = { text: "你好" };
    expect(openEnvelopeSync(deriveEnvelopeKeySync(apiKey), await sealEnvelope(await deriveEnvelopeKey(apiKey), payload))).toEqual(payload);
  });

  it("refuses an IV that is not 16 bytes before sealing, like the WebCrypto one", async () => {
    const iv = new Uint8Array(8);
    expect(() => sealEnvelopeSync(deriveEnvelopeKeySync(API_KEY), {}, { iv })).toThrow(new RangeError("iv must be 16 bytes"));
    await expect(sealEnvelope(await deriveEnvelopeKey(API_KEY), {}, { iv })).rejects.toThrow(new RangeError("iv must be 16 bytes"));
  });

  it("fails every way with the one EnvelopeError, like the WebCrypto one", async () => {
    const key = deriveEnvelopeKeySync(API_KEY);
    const good = sealEnvelopeSync(key, { a: 1 });
    const cases: unknown[] = [
      null,
      { ...good, iv: "AAAA" },
      { ...good, encryptedData: "not base64!" },
      { ...good, encryptedData: Buffer.alloc(20).toString("base64") },
      sealEnvelopeSync(deriveEnvelopeKeySync("fy_other"), { a: 1 }),
      sealEnvelopeSync(key, [1]),
      sealEnvelopeSync(key, "text"),
    ];
    for (const envelope of cases) {
      expect(() => openEnvelopeSync(key, envelope)).toThrow(EnvelopeError);
      await expect(openEnvelope(await deriveEnvelopeKey(API_KEY), envelope)).rejects.toThrow(EnvelopeError);
    }
  });
});

describe("pooled random bytes (IVs and ids)", () => {
  it("hands out every byte once, across refills of the pool, and never the same IV twice", () => {
    const seen = new Set<string>();
    // 2 000 IVs are 32 000 bytes: several refills of the 4 KB pool.
    for (let i = 0; i < 2000; i++) {
      const iv = pooledRandomBytes(16);
      expect(iv.length).toBe(16);
      seen.add(iv.toString("hex"));
    }
    expect(seen.size).toBe(2000);
    // Longer than the pool: still random, full length.
    expect(pooledRandomBytes(10_000).length).toBe(10_000);
  });

  it("each returned buffer is the caller's own memory, holding no bytes handed out before or after it", () => {
    const before = pooledRandomBytes(12);
    const mine = pooledRandomBytes(12);
    const after = pooledRandomBytes(12);
    // A view into the pool (or a copy into Node's shared Buffer pool) would sit
    // in a larger ArrayBuffer that also holds its neighbours' bytes.
    for (const buffer of [before, mine, after]) {
      expect(buffer.byteOffset).toBe(0);
      expect(buffer.buffer.byteLength).toBe(12);
    }
    const kept = [Buffer.from(before), Buffer.from(after)];
    mine.fill(0);
    expect([before, after]).toEqual(kept);
    expect(pooledRandomBytes(12).equals(Buffer.alloc(12))).toBe(false);
  });

  it("seals each answer with a fresh IV", () => {
    const key = deriveEnvelopeKeySync("fy_test");
    const ivs = new Set(Array.from({ length: 100 }, () => sealEnvelopeSync(key, { ok: true }).iv));
    expect(ivs.size).toBe(100);
  });
});
