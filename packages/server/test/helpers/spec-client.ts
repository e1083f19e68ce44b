// A client written from interface.md and decisions.md alone: Node's crypto and
// fetch, deliberately not the project's protocol package, so that the server is
// checked against the spec and not against itself.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

export interface WireEnvelope {
  encryptedData: string;
  iv: string;
  timestamp: number;
}

export function aesKeyOf(apiKey: string): Buffer {
  return createHash("sha256").update(apiKey, "utf8").digest();
}

export function seal(apiKey: string, payload: unknown, timestamp = Date.now()): WireEnvelope {
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-256-cbc", aesKeyOf(apiKey), iv);
  const text = typeof payload === "string" ? payload : JSON.stringify(payload);
  const encrypted = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return { encryptedData: encrypted.toString("base64"), iv: iv.toString("base64"), timestamp };
}

export function open(apiKey: string, envelope: WireEnvelope): Record<string, unknown> {
  const decipher = createDecipheriv("aes-256-cbc", aesKeyOf(apiKey), Buffer.from(envelope.iv, "base64"));
  const plain = Buffer.concat([decipher.update(Buffer.from(envelope.encryptedData, "base64")), decipher.final()]);
  return JSON.parse(plain.toString("utf8")) as Record<string, unknown>;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The decrypted wrapper (or the plain one, for MISSING_API_KEY). */
  body: Record<string, unknown> & {
    success: boolean;
    data?: never;
    error_code?: string;
    message?: string;
    details?: Record<string, unknown>;
  };
  encrypted: boolean;
  raw: string;
}

export class SpecClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string | undefined,
  ) {}

  /** Sends raw bytes as the body, with the key header unless it is undefined. */
  async send(method: string, path: string, rawBody?: string, headerKey: string | undefined = this.apiKey): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (headerKey !== undefined) headers["X-API-Key"] = headerKey;
    if (rawBody !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(`${this.baseUrl}/api/v1${path}`, { method, headers, body: rawBody });
    const raw = await response.text();
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    const encrypted = typeof parsed.encryptedData === "string";
    const decryptWith = headerKey ?? "";
    const body = (encrypted ? open(decryptWith, parsed as unknown as WireEnvelope) : parsed) as Answer["body"];
    return { status: response.status, headers: response.headers, body, encrypted, raw };
  }

  tts(payload: unknown, timestamp?: number): Promise<Answer> {
    if (!this.apiKey) throw new Error("no key");
    return this.send("POST", "/tts", JSON.stringify(seal(this.apiKey, payload, timestamp)));
  }

  voices(): Promise<Answer> {
    return this.send("GET", "/voices");
  }

  account(): Promise<Answer> {
    return this.send("GET", "/account");
  }
}

export function data<T = Record<string, unknown>>(answer: Answer): T {
  if (!answer.body.success) throw new Error(`expected success, got ${JSON.stringify(answer.body)}`);
  return (answer.body as unknown as { data: T }).data;
}
