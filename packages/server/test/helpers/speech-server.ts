/**
 * A speech server written from OpenAI's API reference for POST /v1/audio/speech:
 * a JSON body {model, input, voice, response_format, speed}, the audio as the
 * body (wav, or pcm: 24 kHz 16-bit little-endian mono), errors as JSON
 * {error: {message, type, code}} with a 4xx/5xx status. Its "speech" is a
 * tone of 0.1 s per character of input then 0.3 s of silence, so a test
 * knows the duration to expect. It can be told to fail in every way a real
 * server does.
 */

import http from "node:http";
import type { AddressInfo } from "node:net";

export type Behaviour =
  | "ok"
  | "hang"
  | "error500"
  | "error401"
  | "error400"
  | "truncated"
  | "html"
  | "json-200"
  | "silence"
  | "later-parts-fail";

export interface SpeechRequest {
  model: string;
  input: string;
  voice: string;
  response_format: string;
  speed: number;
  authorization: string | undefined;
}

export const SPEECH_RATE = 24_000;
export const SECONDS_PER_CHAR = 0.1;
export const TRAILING_SILENCE_SECONDS = 0.3;

export interface SpeechServer {
  baseUrl: string;
  requests: SpeechRequest[];
  behaviour: Behaviour;
  /** With "later-parts-fail": the first request answers at once, the next ones answer 500 once this is called. */
  release(): void;
  close(): Promise<void>;
}

export async function startSpeechServer(): Promise<SpeechServer> {
  const requests: SpeechRequest[] = [];
  const state: { behaviour: Behaviour; answered: number; gate: Promise<void>; open: () => void } = {
    behaviour: "ok",
    answered: 0,
    gate: Promise.resolve(),
    open: () => {},
  };
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/audio/speech") {
      sendError(res, 404, "Not found", "invalid_request_error");
      return;
    }
    let body = "";
    for await (const chunk of req) body += String(chunk);
    let parsed: Omit<SpeechRequest, "authorization">;
    try {
      parsed = JSON.parse(body) as Omit<SpeechRequest, "authorization">;
    } catch {
      sendError(res, 400, "We could not parse the JSON body of your request.", "invalid_request_error");
      return;
    }
    requests.push({ ...parsed, authorization: req.headers.authorization });
    if (typeof parsed.input !== "string" || parsed.input.length === 0) {
      sendError(res, 400, "Missing required parameter: 'input'.", "invalid_request_error");
      return;
    }
    switch (state.behaviour) {
      case "later-parts-fail":
        if (state.answered++ > 0) {
          await state.gate;
          sendError(res, 500, "The server had an error while processing your request.", "server_error");
          return;
        }
        break;
      case "hang":
        hanging.add(res);
        return;
      case "error500":
        sendError(res, 500, "The server had an error while processing your request.", "server_error");
        return;
      case "error401":
        sendError(res, 401, "Incorrect API key provided: sk-secret-upstream.", "invalid_request_error");
        return;
      case "error400":
        sendError(res, 400, "Input too long.", "invalid_request_error");
        return;
      case "html":
        res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Bad gateway at upstream-proxy.internal</body></html>");
        return;
      case "json-200":
        res.writeHead(200, { "content-type": "application/octet-stream" }).end('{"status":"queued"}');
        return;
      default:
    }
    const samples = speech(parsed.input, state.behaviour === "silence");
    const pcm = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    const audio = parsed.response_format === "pcm" ? pcm : Buffer.concat([wavHeader(pcm.length), pcm]);
    const contentType = parsed.response_format === "pcm" ? "audio/pcm" : "audio/wav";
    if (state.behaviour === "truncated") {
      // Announces the whole body, sends half, and hangs up: the connection drops mid-body.
      res.writeHead(200, { "content-type": contentType, "content-length": String(audio.length) });
      res.write(audio.subarray(0, Math.floor(audio.length / 2)));
      res.socket?.destroy();
      return;
    }
    res.writeHead(200, { "content-type": contentType, "content-length": String(audio.length) }).end(audio);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get behaviour() {
      return state.behaviour;
    },
    set behaviour(value: Behaviour) {
      state.behaviour = value;
      state.answered = 0;
      state.gate = new Promise((resolve) => {
        state.open = resolve;
      });
    },
    release: () => state.open(),
    async close() {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sendError(res: http.ServerResponse, status: number, message: string, type: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message, type, param: null, code: null } }));
}

/** A 220 Hz tone for 0.1 s per character, fading in and out, then silence. */
export function speech(input: string, silent = false): Int16Array {
  const voiced = Math.round([...input].length * SECONDS_PER_CHAR * SPEECH_RATE);
  const samples = new Int16Array(voiced + Math.round(TRAILING_SILENCE_SECONDS * SPEECH_RATE));
  if (silent) return samples;
  for (let i = 0; i < voiced; i++) {
    const fade = Math.min(1, i / 240, (voiced - i) / 240);
    samples[i] = Math.round(8000 * fade * Math.sin((2 * Math.PI * 220 * i) / SPEECH_RATE));
  }
  return samples;
}

function wavHeader(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVE", 8);
  header.write("fmt ", 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(SPEECH_RATE, 24);
  header.writeUInt32LE(SPEECH_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(dataBytes, 40);
  return header;
}
