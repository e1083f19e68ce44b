import type { NodeEnvelopeKey } from "@fangyan/protocol/node";
import type { KeyOwner } from "../store/store.js";

/** What the API knows about the sender of a request, filled in step by step. */
export interface Caller {
  /** Derived from the presented key, valid or not, so that errors can be encrypted with it. */
  envelopeKey: NodeEnvelopeKey | undefined;
  /** Set once the key is known, active, and its account active. */
  owner: KeyOwner | undefined;
}

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller;
  }
}
