import type { Generated } from "kysely";

/** Table shapes as Kysely sees them; shared by every dialect. */
export interface Database {
  accounts: {
    id: string;
    name: string;
    status: string;
    balance_micro: number;
    total_recharge_micro: number;
    total_consumed_micro: number;
    rate_limit_per_minute: number | null;
    created_at: number;
  };
  api_keys: {
    id: string;
    account_id: string;
    lookup_digest: string;
    prefix: string;
    status: string;
    created_at: number;
  };
  ledger: {
    id: Generated<number>;
    account_id: string;
    kind: string;
    amount_micro: number;
    balance_after_micro: number;
    key_id: string | null;
    raw_chars: number | null;
    billable_chars: number | null;
    audio_id: string | null;
    note: string | null;
    /** SHA-256 of the key id and the envelope (iv, ciphertext) a charge answered; unique. */
    request_fingerprint: string | null;
    created_at: number;
  };
  productions: {
    audio_id: string;
    charge_entry_id: number;
    account_id: string;
    /** The process producing it (Production owner id); its heartbeat keeps the row its own. */
    owner: string;
    state: string;
    heartbeat_at: number;
    created_at: number;
  };
}
