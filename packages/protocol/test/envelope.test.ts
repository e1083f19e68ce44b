import { describe, expect, it } from "vitest";
import { deriveEnvelopeKey, EnvelopeError, openEnvelope, sealEnvelope } from "../src/index.js";

// Recorded once with OpenSSL, an implementation independent of this package:
//   K=$(printf '%s' 'fy_test_vector_key_0001' | sha256sum | cut -d' ' -f1)
//   printf '%s' "$PLAINTEXT" | openssl enc -aes-256-cbc -K $K -iv $IV | base64 -w0
const API_KEY = "fy_test_vector_key_0001";
const VECTORS = [
  {
    plaintext: '{"text":"你好，世界","voice_id":"yue-f1"}',
    iv: "000102030405060708090a0b0c0d0e0f",
    encryptedData: "/BGDTAHmgIAxBMg0VjkbL/L6SgYOGIE62X1jt6InS5MS6fFViM2rgPqQTvFkTxDq",
  },
  {
    plaintext: '{"success":true,"data":{"name":"demo"}}',
    iv: "ffeeddccbbaa99887766554433221100",
    encryptedData: "F5PuXi+8CAwXLLSAeGvvxAmf0sI+e2xo5IjTCrUMNa2XBDR2/xygT9pMswb3DokD",
  },
];

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));
}

function hexToBase64(hex: string): string {
  return Buffer.from(hex, "hex").toString("base64");
}

describe("envelope", () => {
  it.each(VECTORS)("encrypts exactly as OpenSSL does ($iv)", async (vector) => {
    const key = await deriveEnvelopeKey(API_KEY);
    const envelope = await sealEnvelope(key, JSON.parse(vector.plaintext), { iv: hexToBytes(vector.iv), timestamp: 1 });
    expect(envelope).toEqual({ encryptedData: vector.encryptedData, iv: hexToBase64(vector.iv), timestamp: 1 });
  });

  it.each(VECTORS)("decrypts what OpenSSL encrypted ($iv)", async (vector) => {
    const key = await deriveEnvelopeKey(API_KEY);
    const opened = await openEnvelope(key, { encryptedData: vector.encryptedData, iv: hexToBase64(vector.iv), timestamp: 1 });
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
      ["timestamp not an integer", { ...good, timestamp: "1" }, key],
      ["bad base64", { ...good, encryptedData: "%%%%" }, key],
      ["non-canonical base64", { ...good, encryptedData: `${good.encryptedData.replace(/=+$/, "")}A` }, key],
      ["short iv", { ...good, iv: Buffer.alloc(8).toString("base64") }, key],
      ["ciphertext not whole blocks", { ...good, encryptedData: Buffer.alloc(17).toString("base64") }, key],
      ["empty ciphertext", { ...good, encryptedData: "" }, key],
      ["wrong key", good, other],
      ["plaintext not a JSON object", notObject, key],
    ];
    it.each(cases)("%s", async (_name, envelope, withKey) => {
      const failure = await openEnvelope(withKey, envelope).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(EnvelopeError);
      expect((failure as Error).message).toBe("The envelope could not be decrypted");
    });
  });
});
