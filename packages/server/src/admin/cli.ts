import type { Command } from "commander";
import type { AccountService } from "../accounts/service.js";
import { accountView, keyView, ledgerView } from "./views.js";

/** Opens the account service on the configured store and closes it afterwards. */
export type WithAccounts = <T>(work: (accounts: AccountService) => Promise<T>) => Promise<T>;

interface Output {
  json?: boolean;
}

function print(options: Output, value: unknown, human: () => string): void {
  process.stdout.write(`${options.json ? JSON.stringify(value, null, 2) : human()}\n`);
}

function accountLine(a: ReturnType<typeof accountView>): string {
  const limit = a.rate_limit_per_minute === null ? "default" : `${a.rate_limit_per_minute}/min`;
  return `${a.account_id}  ${a.status.padEnd(8)}  balance ${a.balance_yuan} yuan  recharged ${a.total_recharge_yuan}  consumed ${a.total_consumed_yuan}  price ${a.price_per_wan_yuan}/wan  rate ${limit}  ${a.name}`;
}

function keyLine(k: ReturnType<typeof keyView>): string {
  return `${k.key_id}  ${k.prefix}…  ${k.status.padEnd(8)}  account ${k.account_id}  created ${k.created_at}`;
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`expected a whole number, got "${value}"`);
  return Number(value);
}

/** `fangyan admin …`: the operator commands, run against the same data as the server. */
export function registerAdminCommands(program: Command, withAccounts: WithAccounts): void {
  const admin = program.command("admin").description("operate accounts, keys and the ledger (works while the server runs)");
  const account = admin.command("account").description("accounts and balances");
  const key = admin.command("key").description("API keys");

  account
    .command("create")
    .description("create an account and its first API key (shown once)")
    .requiredOption("--name <name>", "account name")
    .option("--recharge <yuan>", "initial recharge in yuan, e.g. 100 or 12.50")
    .option("--json", "print JSON")
    .action((options: Output & { name: string; recharge?: string }) =>
      withAccounts(async (accounts) => {
        const created = await accounts.createAccount({
          name: options.name,
          ...(options.recharge === undefined ? {} : { rechargeYuan: options.recharge }),
        });
        const view = { ...accountView(created.account), api_key: created.apiKey, key: keyView(created.key) };
        print(options, view, () => `${accountLine(view)}\nAPI key (shown once, keep it secret): ${created.apiKey}`);
      }),
    );

  account
    .command("list")
    .description("list accounts")
    .option("--json", "print JSON")
    .action((options: Output) =>
      withAccounts(async (accounts) => {
        const views = (await accounts.listAccounts()).map(accountView);
        print(options, { accounts: views }, () => (views.length ? views.map(accountLine).join("\n") : "no accounts"));
      }),
    );

  account
    .command("show <account_id>")
    .description("show one account")
    .option("--json", "print JSON")
    .action((id: string, options: Output) =>
      withAccounts(async (accounts) => {
        const view = accountView(await accounts.getAccount(id));
        print(options, view, () => accountLine(view));
      }),
    );

  account
    .command("recharge <account_id>")
    .description("add to an account's balance (a ledger row)")
    .requiredOption("--yuan <yuan>", "amount in yuan, at most 2 decimals")
    .option("--note <text>", "note kept in the ledger")
    .option("--json", "print JSON")
    .action((id: string, options: Output & { yuan: string; note?: string }) =>
      withAccounts(async (accounts) => {
        const { account: updated, entry } = await accounts.recharge(id, options.yuan, options.note ?? null);
        const view = { ...accountView(updated), entry: ledgerView(entry) };
        print(options, view, () => accountLine(view));
      }),
    );

  for (const [name, status] of [
    ["disable", "disabled"],
    ["enable", "active"],
  ] as const) {
    account
      .command(`${name} <account_id>`)
      .description(`${name} an account (all its keys ${name === "disable" ? "stop" : "work again"})`)
      .option("--json", "print JSON")
      .action((id: string, options: Output) =>
        withAccounts(async (accounts) => {
          const view = accountView(await accounts.setAccountStatus(id, status));
          print(options, view, () => accountLine(view));
        }),
      );
  }

  account
    .command("set-rate-limit <account_id>")
    .description("override the requests-per-minute limit of one account")
    .option("--per-minute <n>", "requests per minute", wholeNumber)
    .option("--default", "go back to the server-wide default")
    .option("--json", "print JSON")
    .action((id: string, options: Output & { perMinute?: number; default?: boolean }) =>
      withAccounts(async (accounts) => {
        if ((options.perMinute === undefined) === !options.default) {
          throw new Error("give exactly one of --per-minute N or --default");
        }
        const view = accountView(await accounts.setRateLimit(id, options.default ? null : (options.perMinute ?? null)));
        print(options, view, () => accountLine(view));
      }),
    );

  key
    .command("issue <account_id>")
    .description("issue a new API key for an account (shown once)")
    .option("--json", "print JSON")
    .action((id: string, options: Output) =>
      withAccounts(async (accounts) => {
        const issued = await accounts.issueKey(id);
        const view = { ...keyView(issued.key), api_key: issued.apiKey };
        print(options, view, () => `${keyLine(view)}\nAPI key (shown once, keep it secret): ${issued.apiKey}`);
      }),
    );

  key
    .command("list <account_id>")
    .description("list an account's keys (prefixes only)")
    .option("--json", "print JSON")
    .action((id: string, options: Output) =>
      withAccounts(async (accounts) => {
        const views = (await accounts.listKeys(id)).map(keyView);
        print(options, { keys: views }, () => (views.length ? views.map(keyLine).join("\n") : "no keys"));
      }),
    );

  for (const [name, status] of [
    ["disable", "disabled"],
    ["enable", "active"],
  ] as const) {
    key
      .command(`${name} <key_or_prefix>`)
      .description(`${name} a key, given whole, by id (key_…) or by its prefix (fy_…)`)
      .option("--json", "print JSON")
      .action((ref: string, options: Output) =>
        withAccounts(async (accounts) => {
          const view = keyView(await accounts.setKeyStatus(ref, status));
          print(options, view, () => keyLine(view));
        }),
      );
  }

  admin
    .command("ledger <account_id>")
    .description("an account's ledger, newest first")
    .option("--limit <n>", "rows per page (1-500)", wholeNumber, 50)
    .option("--before <id>", "rows older than this ledger id", wholeNumber)
    .option("--json", "print JSON")
    .action((id: string, options: Output & { limit: number; before?: number }) =>
      withAccounts(async (accounts) => {
        const entries = (
          await accounts.ledger(id, { limit: options.limit, ...(options.before === undefined ? {} : { beforeId: options.before }) })
        ).map(ledgerView);
        print(options, { entries }, () =>
          entries.length
            ? entries
                .map(
                  (e) =>
                    `${String(e.id).padStart(6)}  ${e.created_at}  ${e.kind.padEnd(8)}  ${String(e.amount_yuan).padStart(12)}  balance ${e.balance_after_yuan}${e.billable_chars === null ? "" : `  ${e.raw_chars}/${e.billable_chars} chars`}${e.note ? `  ${e.note}` : ""}`,
                )
                .join("\n")
            : "no ledger rows",
        );
      }),
    );
}
