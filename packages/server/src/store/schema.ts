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
    created_at: number;
  };
}
