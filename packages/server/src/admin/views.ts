import { microToYuan, pricePerWanMicro } from "@fangyan/protocol";
import type { Account, ApiKeyRecord, LedgerEntry } from "../store/store.js";

/** The JSON shapes operators see, the same from the command line and the admin API. */

export function accountView(account: Account) {
  return {
    account_id: account.id,
    name: account.name,
    status: account.status,
    balance_yuan: microToYuan(account.balanceMicro),
    total_recharge_yuan: microToYuan(account.totalRechargeMicro),
    total_consumed_yuan: microToYuan(account.totalConsumedMicro),
    price_per_wan_yuan: microToYuan(pricePerWanMicro(account.totalRechargeMicro)),
    rate_limit_per_minute: account.rateLimitPerMinute,
    created_at: new Date(account.createdAt).toISOString(),
  };
}

export function keyView(key: ApiKeyRecord) {
  return {
    key_id: key.id,
    account_id: key.accountId,
    prefix: key.prefix,
    status: key.status,
    created_at: new Date(key.createdAt).toISOString(),
  };
}

export function ledgerView(entry: LedgerEntry) {
  return {
    id: entry.id,
    kind: entry.kind,
    amount_yuan: microToYuan(entry.amountMicro),
    balance_after_yuan: microToYuan(entry.balanceAfterMicro),
    key_id: entry.keyId,
    raw_chars: entry.rawChars,
    billable_chars: entry.billableChars,
    audio_id: entry.audioId,
    note: entry.note,
    created_at: new Date(entry.createdAt).toISOString(),
  };
}
