import { describe, expect, it } from "vitest";
import { bytesToBase64, deriveEnvelopeKey, EnvelopeError, openEnvelope, sealEnvelope } from "../src/index.js";
import { hexToBytes, loadEnvelopeVectors } from "./vectors/envelope-vectors.js";

const { api_key: API_KEY, aes_key_hex: AES_KEY_HEX, vectors: VECTORS } = loadEnvelopeVectors();

/** An envelope of raw plaintext bytes, such as no JSON text encodes: {"a":"<0xFF>"}. */
async function sealedBytes(key: Awaited<ReturnType<typeof deriveEnvelopeKey>>, plaintext: Uint8Array<ArrayBuffer>) {
  const iv = crypto.getRandomValues(new Uint8Array(16));
  const ciphertext = await crypto.subtle.encrypt({ name: "AES-CBC", iv }, key.cryptoKey, plaintext);
  return { encryptedData: bytesToBase64(new Uint8Array(ciphertext)), iv: bytesToBase64(iv), timestamp: Date.now() };
}

describe("envelope", () => {
  it("the AES key is SHA-256 of the API key string", async () => {
    expect(Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(API_KEY))).toString("hex")).toBe(AES_KEY_HEX);
  });

  it.each(VECTORS)("encrypts exactly as OpenSSL does: $name", async (vector) => {
    const key = await deriveEnvelopeKey(API_KEY);
    const envelope = await sealEnvelope(key, JSON.parse(vector.plaintext), { iv: hexToBytes(vector.iv_hex), timestamp: 1 });
    expect(envelope).toEqual({ encryptedData: vector.encryptedData, iv: vector.iv, timestamp: 1 });
    expect(bytesToBase64(hexToBytes(vector.iv_hex))).toBe(vector.iv);
  });

  it.each(VECTORS)("decrypts what OpenSSL encrypted: $name", async (vector) => {
    const key = await deriveEnvelopeKey(API_KEY);
    const opened = await openEnvelope(key, { encryptedData: vector.encryptedData, iv: vector.iv, timestamp: 1 });
    expect(opened).toEqual(JSON.parse(vector.plaintext));
  });

  it("uses a fresh random IV for every message", async () => {
    const key = await deriveEnvelopeKey(API_KEY);
    const a = await sealEnvelope(key, { a: 1 });
    const b = await sealEnvelope(key, { a: 1 });
    expect(a.iv).not.toBe(b.iv);
    expect(Buffer.from(a.iv, "base64")).toHaveLength(16);
    expect(Math.abs(a.timestamp - Date.now())).toBeLessThan(5000);
  });

  it("round-trips text outside the Basic Multilingual Plane", async () => {
    const key = await deriveEnvelopeKey(API_KEY);
    const payload = { text: "𠮷野家の粤語 😀", n: 1.5 };
    expect(await openEnvelope(key, await sealEnvelope(key, payload))).toEqual(payload);
  });

  describe("every failure is the same EnvelopeError", async () => {
    const key = await deriveEnvelopeKey(API_KEY);
    const other = await deriveEnvelopeKey("fy_another_key");
    const good = await sealEnvelope(key, { text: "你好" });
    const notObject = await sealEnvelope(key, [1, 2]);
    const cases: Array<[string, unknown, typeof key]> = [
      ["not an object", "hello", key],
      ["missing iv", { encryptedData: good.encryptedData, timestamp: good.timestamp }, key],
      ["timestamp a string", { ...good, timestamp: "1" }, key],
      ["timestamp a fraction", { ...good, timestamp: 1.5 }, key],
      ["timestamp beyond a safe integer", { ...good, timestamp: 2 ** 60 }, key],
      ["bad base64", { ...good, encryptedData: "%%%%" }, key],
      ["non-canonical base64", { ...good, encryptedData: `${good.encryptedData.replace(/=+$/, "")}A` }, key],
      ["short iv", { ...good, iv: Buffer.alloc(8).toString("base64") }, key],
      ["ciphertext not whole blocks", { ...good, encryptedData: Buffer.alloc(17).toString("base64") }, key],
      ["empty ciphertext", { ...good, encryptedData: "" }, key],
      ["wrong key", good, other],
      ["plaintext not a JSON object", notObject, key],
      ["plaintext not valid UTF-8", await sealedBytes(key, Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])), key],
    ];
    it.each(cases)("%s", async (_name, envelope, withKey) => {
      const failure = await openEnvelope(withKey, envelope).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(EnvelopeError);
      expect((failure as Error).message).toBe("The envelope could not be decrypted");
    });
  });
});
