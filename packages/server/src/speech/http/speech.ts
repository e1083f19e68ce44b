/**
 * One request to an OpenAI-compatible speech server, POST {baseUrl}/audio/speech
 * as OpenAI's API reference describes it: JSON {model, input, voice,
 * response_format, speed}; the answer's body is the audio. What can go wrong
 * comes back as an UpstreamFailure whose detail is for the operator's log:
 * it never holds the key, and the caller never shows it to a client.
 */

import type { Pcm } from "../engine.js";
import { readWav } from "../wav.js";
import type { HttpVoice } from "./voice.js";

export class UpstreamFailure extends Error {
  override readonly name = "UpstreamFailure";

  /** `endpointFault`: the endpoint itself is failing (counts toward its back-off), not just this one text. */
  constructor(
    message: string,
    readonly endpointFault: boolean,
  ) {
    super(message);
  }
}

export interface SpeechCall {
  voice: HttpVoice;
  text: string;
  speed: number;
  apiKey: string | undefined;
}

export async function requestSpeech({ voice, text, speed, apiKey }: SpeechCall): Promise<Pcm> {
  let response: Response;
  let body: Uint8Array;
  try {
    response = await fetch(`${voice.baseUrl}/audio/speech`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: voice.responseFormat === "wav" ? "audio/wav" : "audio/pcm",
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify({ model: voice.model, input: text, voice: voice.voice, response_format: voice.responseFormat, speed }),
      signal: AbortSignal.timeout(voice.timeoutMs),
      redirect: "error",
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      // 400 and 422 refuse this text (too long, a character it cannot read); other statuses mean the endpoint cannot serve.
      throw new UpstreamFailure(`HTTP ${response.status}`, response.status !== 400 && response.status !== 422);
    }
    body = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof UpstreamFailure) throw error;
    throw new UpstreamFailure(describeFetchError(error, voice.timeoutMs), true);
  }
  return decodeAudio(body, response.headers.get("content-type") ?? "", voice);
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = cause && "code" in cause ? String(cause.code) : undefined;
  // Undici says "fetch failed" or "terminated"; its cause names the socket error (ECONNREFUSED, UND_ERR_SOCKET, ...).
  return [error instanceof Error ? error.message : String(error), code].filter(Boolean).join(": ");
}

function decodeAudio(body: Uint8Array, contentType: string, voice: HttpVoice): Pcm {
  if (/^(text\/|application\/(json|problem))/i.test(contentType))
    throw new UpstreamFailure(`a ${contentType.split(";")[0]} body instead of audio`, true);
  if (voice.responseFormat === "wav") {
    let wav: ReturnType<typeof readWav>;
    try {
      wav = readWav(body, { strict: true });
    } catch (error) {
      throw new UpstreamFailure(`not a usable WAV body (${error instanceof Error ? error.message : String(error)})`, true);
    }
    if (wav.channels !== 1) throw new UpstreamFailure(`${wav.channels}-channel audio; voices are mono`, true);
    if (wav.samples.length === 0) throw new UpstreamFailure("an empty WAV body", true);
    return { pcm: wav.samples.slice(), sampleRate: wav.sampleRate };
  }
  if (body.length === 0 || body.length % 2 !== 0)
    throw new UpstreamFailure(`a PCM body of ${body.length} bytes (16-bit samples come in pairs)`, true);
  const pcm = new Int16Array(body.length / 2);
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  for (let i = 0; i < pcm.length; i++) pcm[i] = view.getInt16(i * 2, true);
  return { pcm, sampleRate: voice.sampleRate };
}
