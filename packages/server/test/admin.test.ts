import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./helpers/harness.js";
import { fangyan, run } from "./helpers/processes.js";
import { data, SpecClient } from "./helpers/spec-client.js";

const ADMIN_TOKEN = "test-admin-token-0123456789";
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ FANGYAN_ADMIN_TOKEN: ADMIN_TOKEN });
});
afterAll(() => t?.close());

/** `npx fangyan admin …` against the running server's data dir. */
async function admin(...args: string[]) {
  const result = await fangyan(["admin", ...args], { FANGYAN_DATA_DIR: t.dataDir });
  return { ...result, json: <T = Record<string, string>>() => JSON.parse(result.stdout) as T };
}

describe("fangyan admin (command line), while the server runs", () => {
  it("creates an account whose key works at once, recharges it, and shows the ledger", async () => {
    const created = (await admin("account", "create", "--name", "茶餐厅", "--recharge", "5", "--json")).json();
    expect(created).toMatchObject({ name: "茶餐厅", balance_yuan: 5, status: "active", api_key: expect.stringMatching(/^fy_/) });
    const accountId = created.account_id ?? "";
    const client = new SpecClient(t.baseUrl, created.api_key);
    expect(data(await client.account())).toMatchObject({ name: "茶餐厅", balance_yuan: 5 });

    const recharged = (await admin("account", "recharge", accountId, "--yuan", "495", "--json")).json();
    expect(recharged).toMatchObject({ balance_yuan: 500, total_recharge_yuan: 500, price_per_wan_yuan: 1.9 });
    expect(data(await client.account())).toMatchObject({ price_per_wan_yuan: 1.9 });

    const ledger = (await admin("ledger", accountId, "--json")).json<{ entries: Array<{ kind: string; amount_yuan: number }> }>();
    expect(ledger.entries.map((e) => [e.kind, e.amount_yuan])).toEqual([
      ["recharge", 495],
      ["recharge", 5],
    ]);

    const shown = (await admin("account", "show", accountId, "--json")).json();
    expect(shown).toMatchObject({ account_id: accountId, balance_yuan: 500 });
    const listed = (await admin("account", "list", "--json")).json<{ accounts: Array<{ account_id: string }> }>();
    expect(listed.accounts.map((a) => a.account_id)).toContain(accountId);
    expect((await admin("account", "list")).stdout).toContain(accountId);
  });

  it("issues, lists, disables and re-enables keys; disabling an account stops its keys", async () => {
    const { accountId, apiKey, client } = await t.newCustomer();
    const issued = (await admin("key", "issue", accountId, "--json")).json();
    expect(issued.api_key).toMatch(/^fy_[A-Za-z0-9_-]{32}$/);
    const keys = (await admin("key", "list", accountId, "--json")).json<{ keys: Array<Record<string, string>> }>();
    expect(keys.keys).toHaveLength(2);
    expect(JSON.stringify(keys)).not.toContain(apiKey);

    expect((await admin("key", "disable", apiKey.slice(0, 11), "--json")).json()).toMatchObject({ status: "disabled" });
    expect((await client.account()).body.error_code).toBe("INVALID_API_KEY");
    expect((await new SpecClient(t.baseUrl, issued.api_key).account()).status).toBe(200);
    expect((await admin("key", "enable", apiKey, "--json")).json()).toMatchObject({ status: "active" });
    expect((await client.account()).status).toBe(200);

    await admin("account", "disable", accountId);
    expect((await client.account()).body.error_code).toBe("INVALID_API_KEY");
    await admin("account", "enable", accountId);
    expect((await client.account()).status).toBe(200);
  });

  it("sets a per-account rate limit that the running server applies", async () => {
    const { accountId, client } = await t.newCustomer();
    expect((await admin("account", "set-rate-limit", accountId, "--per-minute", "1", "--json")).json()).toMatchObject({
      rate_limit_per_minute: 1,
    });
    expect((await client.account()).status).toBe(200);
    expect((await client.account()).status).toBe(429);
  });

  it("is the `fangyan` command that npm links for npx", async () => {
    const result = await run("npx", ["--no-install", "fangyan", "admin", "account", "list", "--json"], { FANGYAN_DATA_DIR: t.dataDir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ accounts: expect.any(Array) });
  });

  it.each([
    [["account", "show", "acct_nope"], /No account acct_nope/],
    [["account", "recharge", "acct_nope", "--yuan", "1"], /No account/],
    [["account", "create", "--name", "x", "--recharge", "1.234"], /at most 2 decimals/],
    [["account", "create"], /required option/],
    [["account", "set-rate-limit", "acct_x", "--per-minute", "ten"], /whole number/],
    [["key", "disable", "fy_nothing"], /No such key/],
    [["ledger", "acct_x", "--limit", "0"], /^fangyan: Ledger page size must be 1-500$/m],
    [["bogus"], /unknown command/],
  ])("bad arguments get a one-line error and a non-zero exit: %j", async (args, message) => {
    const result = await admin(...args);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });
});

describe("the admin HTTP API", () => {
  const call = (method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN) =>
    fetch(`${t.baseUrl}/admin/v1${path}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("refuses requests without the right bearer token", async () => {
    expect((await call("GET", "/accounts", undefined, null)).status).toBe(401);
    expect((await call("GET", "/accounts", undefined, "wrong-token-wrong-token")).status).toBe(401);
  });

  it("does every operator command", async () => {
    const createdResponse = await call("POST", "/accounts", { name: "HTTP 客户", recharge_yuan: "2" });
    expect(createdResponse.status).toBe(201);
    const created = (await createdResponse.json()) as Record<string, string>;
    const id = created.account_id ?? "";
    const client = new SpecClient(t.baseUrl, created.api_key);
    expect(data(await client.account())).toMatchObject({ balance_yuan: 2 });

    expect(await (await call("POST", `/accounts/${id}/recharge`, { yuan: 3 })).json()).toMatchObject({ balance_yuan: 5 });
    expect(await (await call("GET", `/accounts/${id}`)).json()).toMatchObject({ account_id: id, balance_yuan: 5 });
    const list = (await (await call("GET", "/accounts")).json()) as { accounts: Array<{ account_id: string }> };
    expect(list.accounts.map((a) => a.account_id)).toContain(id);

    const issued = (await (await call("POST", `/accounts/${id}/keys`)).json()) as Record<string, string>;
    expect(issued.api_key).toMatch(/^fy_/);
    const keys = (await (await call("GET", `/accounts/${id}/keys`)).json()) as { keys: unknown[] };
    expect(keys.keys).toHaveLength(2);
    expect(await (await call("POST", "/keys/disable", { key: issued.key_id })).json()).toMatchObject({ status: "disabled" });
    expect((await new SpecClient(t.baseUrl, issued.api_key).account()).body.error_code).toBe("INVALID_API_KEY");

    expect(await (await call("PUT", `/accounts/${id}/rate-limit`, { per_minute: 120 })).json()).toMatchObject({
      rate_limit_per_minute: 120,
    });
    expect(await (await call("POST", `/accounts/${id}/disable`)).json()).toMatchObject({ status: "disabled" });
    expect(await (await call("POST", `/accounts/${id}/enable`)).json()).toMatchObject({ status: "active" });

    for (let i = 0; i < 3; i++) await call("POST", `/accounts/${id}/recharge`, { yuan: "0.01" });
    const page1 = (await (await call("GET", `/accounts/${id}/ledger?limit=2`)).json()) as {
      entries: Array<{ id: number }>;
      next_before: number;
    };
    expect(page1.entries).toHaveLength(2);
    const page2 = (await (await call("GET", `/accounts/${id}/ledger?limit=10&before=${page1.next_before}`)).json()) as {
      entries: Array<{ id: number }>;
    };
    expect(page2.entries).toHaveLength(3);
    expect(Math.max(...page2.entries.map((e) => e.id))).toBeLessThan(page1.next_before);
  });

  it("answers bad input with 400/404 and a message, never a 500", async () => {
    expect((await call("POST", "/accounts", { recharge_yuan: 1 })).status).toBe(400);
    expect((await call("POST", "/accounts", { name: "x", recharge_yuan: -5 })).status).toBe(400);
    expect((await call("GET", "/accounts/acct_missing")).status).toBe(404);
    expect((await call("POST", "/accounts/acct_missing/recharge", { yuan: 1 })).status).toBe(404);
    expect((await call("PUT", "/accounts/acct_missing/rate-limit", { per_minute: "many" })).status).toBe(400);
    const bad = await fetch(`${t.baseUrl}/admin/v1/accounts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: expect.any(String) });
  });
});

describe("the admin HTTP API without a token configured", () => {
  it("is switched off", async () => {
    const plain = await startTestServer();
    try {
      const response = await fetch(`${plain.baseUrl}/admin/v1/accounts`, { headers: { Authorization: "Bearer anything-at-all-here" } });
      expect(response.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
