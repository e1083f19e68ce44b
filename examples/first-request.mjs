#!/usr/bin/env node
// A first request to Fangyan written from the interface alone: Node's own
// crypto and fetch, nothing from this project. Usage:
//   FANGYAN_API_KEY=fy_… FANGYAN_BASE_URL=http://127.0.0.1:8080/api/v1 \
//     node examples/first-request.mjs "你好，世界" yue-female-1
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";

const apiKey = process.env.FANGYAN_API_KEY;
const baseUrl = (process.env.FANGYAN_BASE_URL ?? "http://127.0.0.1:8080/api/v1").replace(/\/+$/, "");
const [text = "你好，世界！", voiceId] = process.argv.slice(2);
if (!apiKey) {
  console.error("Set FANGYAN_API_KEY to your API key (npm start prints the demo key on first run).");
  process.exit(2);
}

// The AES-256 key is the SHA-256 digest of the API key string.
const aesKey = createHash("sha256").update(apiKey, "utf8").digest();

function seal(payload) {
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-256-cbc", aesKey, iv); // PKCS#7 padding by default
  const encrypted = Buffer.concat([cipher.update(JSON.stringify(payload), "utf8"), cipher.final()]);
  return { encryptedData: encrypted.toString("base64"), iv: iv.toString("base64"), timestamp: Date.now() };
}

function open(body) {
  if (!("encryptedData" in body)) return body; // MISSING_API_KEY comes as plain JSON
  const decipher = createDecipheriv("aes-256-cbc", aesKey, Buffer.from(body.iv, "base64"));
  const plain = Buffer.concat([decipher.update(Buffer.from(body.encryptedData, "base64")), decipher.final()]);
  return JSON.parse(plain.toString("utf8"));
}

async function call(method, path, payload) {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { "X-API-Key": apiKey, ...(payload ? { "Content-Type": "application/json" } : {}) },
    body: payload ? JSON.stringify(seal(payload)) : undefined,
  });
  return { status: response.status, body: open(await response.json()) };
}

let voice = voiceId;
if (!voice) {
  const voices = await call("GET", "/voices");
  console.log("Voices:", JSON.stringify(voices.body.data?.voices ?? voices.body, null, 2));
  voice = Object.values(voices.body.data?.voices ?? {})[0]?.[0]?.id;
}
const result = await call("POST", "/tts", { text, voice_id: voice });
console.log(`HTTP ${result.status}`, JSON.stringify(result.body, null, 2));
if (result.body.success) {
  const audio = await fetch(result.body.data.audio_url);
  await writeFile("first-request.mp3", Buffer.from(await audio.arrayBuffer()));
  console.log("Saved first-request.mp3");
} else {
  process.exit(1);
}
