import type { FastifyRequest } from "fastify";
import { shortAudioId } from "./audio/ids.js";

// Query parameters whose name says they carry a secret, and values that look like one.
const SECRET_NAME = /token|key|secret|password|passwd|auth|signature|credential/i;
const SECRET_VALUE = /^fy_[A-Za-z0-9_-]{32}$|^[A-Za-z0-9_+/=.-]{24,}$/;
const AUDIO_PATH = /^(\/audio\/)([A-Za-z0-9_-]{22})(\.[a-z0-9]+)?$/;

/**
 * A request URL as the request log may keep it. Audio URLs are bearer
 * capabilities, so only the start of an audio id is kept; a query parameter
 * that is named like a secret or looks like one (an API key, an admin token
 * a form sent by GET) is replaced, whatever page put it there.
 */
export function loggableUrl(url: string): string {
  const at = url.indexOf("?");
  const path = at < 0 ? url : url.slice(0, at);
  const audio = AUDIO_PATH.exec(path);
  const shownPath = audio ? `${audio[1]}${shortAudioId(audio[2] ?? "")}${audio[3] ?? ""}` : path;
  if (at < 0) return shownPath;
  const query = new URLSearchParams(url.slice(at + 1));
  for (const [name, value] of [...query]) {
    if (SECRET_NAME.test(name) || SECRET_VALUE.test(value)) query.set(name, "[redacted]");
  }
  return `${shownPath}?${query.toString()}`;
}

/** The request as pino logs it: Fastify's default fields, with the URL made loggable. */
export function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
