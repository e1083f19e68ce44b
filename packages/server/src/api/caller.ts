import type { NodeEnvelopeKey } from "@fangyan/protocol/node";
import type { FastifyRequest } from "fastify";
import type { KeyOwner } from "../store/store.js";

/** What the API knows about the sender of a request, filled in step by step. */
export interface Caller {
  /** Derived from the presented key, valid or not, so that errors can be encrypted with it. */
  envelopeKey: NodeEnvelopeKey | undefined;
  /** Set once the key is known, active, and its account active. */
  owner: KeyOwner | undefined;
}

/** The authenticated owner of a request's key; a route behind the authenticator always has one. */
export function ownerOf(request: FastifyRequest): KeyOwner {
  const found = request.caller.owner;
  if (!found) throw new Error("route reached without an authenticated caller");
  return found;
}

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller;
  }
}
