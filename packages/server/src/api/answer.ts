import type { ApiResponse } from "@fangyan/protocol";
import { sealEnvelopeSync } from "@fangyan/protocol/node";
import type { FastifyReply } from "fastify";
import type { StoredAnswer } from "../replay/cache.js";
import type { Caller } from "./caller.js";

/**
 * Encrypts a wrapper with the key the request presented. Only when no key was
 * presented at all (MISSING_API_KEY) does it go out as plain JSON.
 */
export function encodeAnswer(caller: Caller | undefined, status: number, wrapper: ApiResponse<unknown>): StoredAnswer {
  const key = caller?.envelopeKey;
  const body = key ? sealEnvelopeSync(key, wrapper) : wrapper;
  return { status, body: JSON.stringify(body) };
}

export function sendAnswer(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  return reply.code(answer.status).type("application/json; charset=utf-8").send(answer.body);
}
