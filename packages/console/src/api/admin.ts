/*
 * The operator API (/admin/v1, docs/operations.md): plain JSON behind a bearer
 * token, on this page's own origin. The shapes below are the documented ones.
 */

export interface AdminAccount {
  account_id: string;
  name: string;
  status: "active" | "disabled";
  balance_yuan: number;
  total_recharge_yuan: number;
  total_consumed_yuan: number;
  price_per_wan_yuan: number;
  rate_limit_per_minute: number | null;
  created_at: string;
}

export interface AdminKey {
  key_id: string;
  account_id: string;
  prefix: string;
  status: "active" | "disabled";
  created_at: string;
}

export interface LedgerEntry {
  id: number;
  kind: "recharge" | "charge" | "reversal";
  amount_yuan: number;
  balance_after_yuan: number;
  key_id: string | null;
  raw_chars: number | null;
  billable_chars: number | null;
  audio_id: string | null;
  note: string | null;
  created_at: string;
}

export interface LedgerPage {
  entries: LedgerEntry[];
  next_before: number | null;
}

/** An answer of the admin API that is not a success; `message` is the service's `error`. */
export class AdminError extends Error {
  override readonly name = "AdminError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export class AdminClient {
  readonly #token: string;
  readonly #base: string;
  readonly #fetch: Fetch;

  /** `base` is this page's origin + "/admin/v1": the token is never sent anywhere else. */
  constructor(token: string, base: string, fetchImpl: Fetch = (input, init) => globalThis.fetch(input, init)) {
    this.#token = token;
    this.#base = base;
    this.#fetch = fetchImpl;
  }

  listAccounts(): Promise<{ accounts: AdminAccount[] }> {
    return this.#call("GET", "/accounts");
  }

  createAccount(name: string, rechargeYuan?: string): Promise<AdminAccount & { api_key: string; key: AdminKey }> {
    return this.#call("POST", "/accounts", rechargeYuan ? { name, recharge_yuan: rechargeYuan } : { name });
  }

  getAccount(id: string): Promise<AdminAccount> {
    return this.#call("GET", `/accounts/${encodeURIComponent(id)}`);
  }

  recharge(id: string, yuan: string, note?: string): Promise<AdminAccount & { entry: LedgerEntry }> {
    return this.#call("POST", `/accounts/${encodeURIComponent(id)}/recharge`, note ? { yuan, note } : { yuan });
  }

  setAccountStatus(id: string, action: "disable" | "enable"): Promise<AdminAccount> {
    return this.#call("POST", `/accounts/${encodeURIComponent(id)}/${action}`);
  }

  issueKey(id: string): Promise<AdminKey & { api_key: string }> {
    return this.#call("POST", `/accounts/${encodeURIComponent(id)}/keys`);
  }

  listKeys(id: string): Promise<{ keys: AdminKey[] }> {
    return this.#call("GET", `/accounts/${encodeURIComponent(id)}/keys`);
  }

  setKeyStatus(keyId: string, action: "disable" | "enable"): Promise<AdminKey> {
    return this.#call("POST", `/keys/${action}`, { key: keyId });
  }

  ledger(id: string, limit: number, before?: number): Promise<LedgerPage> {
    const query = new URLSearchParams({ limit: String(limit) });
    if (before !== undefined) query.set("before", String(before));
    return this.#call("GET", `/accounts/${encodeURIComponent(id)}/ledger?${query}`);
  }

  async #call<T>(method: "GET" | "POST", path: string, body?: object): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.#token}` };
    const init: RequestInit = { method, headers, cache: "no-store" };
    if (method === "POST") {
      // Fastify refuses a JSON request with an empty body, so a POST without fields sends {}.
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body ?? {});
    }
    const response = await this.#fetch(`${this.#base}${path}`, init);
    const answer: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const message = isRecord(answer) && typeof answer.error === "string" ? answer.error : `HTTP ${response.status}`;
      throw new AdminError(message, response.status);
    }
    // The same-origin service answers the documented shapes; the views read only documented fields.
    return answer as T;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
