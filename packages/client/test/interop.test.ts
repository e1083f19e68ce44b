/**
 * The client's envelope against implementations that are not this project's:
 * the recorded OpenSSL vectors shared with @fangyan/protocol, and OpenSSL
 * (and Python's `cryptography`, where installed) run now on fresh inputs.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hexToBytes, loadEnvelopeVectors } from "../../protocol/test/vectors/envelope-vectors.js";
import { deriveEnvelopeKey, Fangyan, type Fetch, openEnvelope, sealEnvelope } from "../src/index.js";
import { toolAvailable } from "./helpers/tools.js";

const recorded = loadEnvelopeVectors();

const hasOpenssl = toolAvailable("OpenSSL", "openssl", ["version"]);
const hasPythonCryptography = toolAvailable("Python's cryptography", "python3", ["-c", "import cryptography"]);

const aesKeyHex = (apiKey: string) => createHash("sha256").update(apiKey, "utf8").digest("hex");

function opensslEncrypt(apiKey: string, plaintext: string, ivHex: string): string {
  return execFileSync("openssl", ["enc", "-aes-256-cbc", "-K", aesKeyHex(apiKey), "-iv", ivHex, "-base64", "-A"], { input: plaintext })
    .toString()
    .trim();
}

function opensslDecrypt(apiKey: string, encryptedData: string, ivHex: string): string {
  return execFileSync("openssl", ["enc", "-d", "-aes-256-cbc", "-K", aesKeyHex(apiKey), "-iv", ivHex, "-base64", "-A"], {
    input: encryptedData,
  }).toString("utf8");
}

// Python's `cryptography`, PKCS7(128) padding: the combination docs/protocol.md names.
const PYTHON = `
import base64, hashlib, json, sys
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
job = json.load(sys.stdin)
key = hashlib.sha256(job["api_key"].encode("utf-8")).digest()
iv = base64.b64decode(job["iv"])
cipher = Cipher(algorithms.AES(key), modes.CBC(iv))
if job["op"] == "encrypt":
    padder = padding.PKCS7(128).padder()
    data = padder.update(job["text"].encode("utf-8")) + padder.finalize()
    enc = cipher.encryptor()
    print(base64.b64encode(enc.update(data) + enc.finalize()).decode())
else:
    dec = cipher.decryptor()
    data = dec.update(base64.b64decode(job["encryptedData"])) + dec.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    sys.stdout.write((unpadder.update(data) + unpadder.finalize()).decode("utf-8"))
`;

function python(job: Record<string, string>): string {
  return execFileSync("python3", ["-c", PYTHON], { input: JSON.stringify(job) })
    .toString("utf8")
    .trim();
}

/** Fresh inputs every run: a random key, random IVs, and payloads across block boundaries and planes. */
function freshCases() {
  const apiKey = `fy_${randomBytes(24).toString("base64url")}`;
  const payloads = [
    { text: "你好，世界", voice_id: "cmn-female-1" },
    { text: `𠮷野家 😀 ${randomBytes(8).toString("hex")}`, voice_id: "yue-female-1", speed: 1.25 },
    { success: true, data: { name: "测试", balance_yuan: 0.00875 } },
    { a: "x".repeat(7) }, // 15 bytes of JSON: one byte of padding
    { a: "x".repeat(8) }, // 16 bytes: a whole block of padding
    { text: "粤".repeat(700) },
  ];
  return payloads.map((payload) => ({ apiKey, payload, plaintext: JSON.stringify(payload), iv: randomBytes(16) }));
}

describe("recorded vectors (packages/protocol/test/vectors/envelope.json, made with OpenSSL)", () => {
  it.each(recorded.vectors)("the client encrypts $name exactly as OpenSSL did", async (vector) => {
    const key = await deriveEnvelopeKey(recorded.api_key);
    const envelope = await sealEnvelope(key, JSON.parse(vector.plaintext), { iv: hexToBytes(vector.iv_hex), timestamp: 1 });
    expect(envelope.encryptedData).toBe(vector.encryptedData);
    expect(envelope.iv).toBe(vector.iv);
  });

  it.each(recorded.vectors)("the client decrypts what OpenSSL encrypted: $name", async (vector) => {
    const key = await deriveEnvelopeKey(recorded.api_key);
    expect(await openEnvelope(key, { encryptedData: vector.encryptedData, iv: vector.iv, timestamp: 1 })).toEqual(
      JSON.parse(vector.plaintext),
    );
  });
});

describe.runIf(hasOpenssl)("OpenSSL, run now on fresh inputs", () => {
  it("the client decrypts what `openssl enc -aes-256-cbc` encrypted", async () => {
    for (const { apiKey, payload, plaintext, iv } of freshCases()) {
      const encryptedData = opensslEncrypt(apiKey, plaintext, iv.toString("hex"));
      const opened = await openEnvelope(await deriveEnvelopeKey(apiKey), {
        encryptedData,
        iv: iv.toString("base64"),
        timestamp: Date.now(),
      });
      expect(opened).toEqual(payload);
    }
  });

  it("`openssl enc -d` decrypts what the client encrypted", async () => {
    for (const { apiKey, plaintext } of freshCases()) {
      const envelope = await sealEnvelope(await deriveEnvelopeKey(apiKey), JSON.parse(plaintext));
      const ivHex = Buffer.from(envelope.iv, "base64").toString("hex");
      expect(opensslDecrypt(apiKey, envelope.encryptedData, ivHex)).toBe(plaintext);
    }
  });
});

describe.runIf(hasOpenssl)("the whole client against a server whose crypto is OpenSSL's", () => {
  it("its request opens with `openssl enc -d`, and it reads an answer sealed by `openssl enc`", async () => {
    const apiKey = `fy_${randomBytes(24).toString("base64url")}`;
    const received: unknown[] = [];
    const opensslServer: Fetch = async (_input, init) => {
      const request = JSON.parse(String(init?.body)) as { encryptedData: string; iv: string };
      received.push(JSON.parse(opensslDecrypt(apiKey, request.encryptedData, Buffer.from(request.iv, "base64").toString("hex"))));
      const answer = {
        success: true,
        data: {
          audio_url: "http://cdn.example/a.mp3",
          billing: { raw_chars: 2, billable_chars: 50, cost_yuan: 0.01, balance_after_yuan: 0.99 },
        },
      };
      const iv = randomBytes(16);
      const envelope = {
        encryptedData: opensslEncrypt(apiKey, JSON.stringify(answer), iv.toString("hex")),
        iv: iv.toString("base64"),
        timestamp: Date.now(),
      };
      return new Response(JSON.stringify(envelope), { headers: { "Content-Type": "application/json", "X-Request-Id": "req_openssl" } });
    };
    const fy = new Fangyan({ apiKey, baseUrl: "http://fangyan.test/api/v1", fetch: opensslServer });
    const result = await fy.tts({ text: "你好", voiceId: "yue-female-1", speed: 1.5 });
    expect(received).toEqual([{ text: "你好", voice_id: "yue-female-1", speed: 1.5 }]);
    expect(result).toEqual({
      audioUrl: "http://cdn.example/a.mp3",
      billing: { rawChars: 2, billableChars: 50, costYuan: 0.01, balanceAfterYuan: 0.99 },
      requestId: "req_openssl",
    });
  });
});

describe.runIf(hasPythonCryptography)("Python cryptography, run now on fresh inputs", () => {
  it("the client decrypts what Python encrypted", async () => {
    for (const { apiKey, payload, plaintext, iv } of freshCases()) {
      const encryptedData = python({ op: "encrypt", api_key: apiKey, iv: iv.toString("base64"), text: plaintext });
      const opened = await openEnvelope(await deriveEnvelopeKey(apiKey), {
        encryptedData,
        iv: iv.toString("base64"),
        timestamp: Date.now(),
      });
      expect(opened).toEqual(payload);
    }
  });

  it("Python decrypts what the client encrypted", async () => {
    for (const { apiKey, plaintext } of freshCases()) {
      const envelope = await sealEnvelope(await deriveEnvelopeKey(apiKey), JSON.parse(plaintext));
      expect(python({ op: "decrypt", api_key: apiKey, iv: envelope.iv, encryptedData: envelope.encryptedData })).toBe(plaintext);
    }
  });
});
