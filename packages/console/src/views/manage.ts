import type { AdminAccount, AdminClient, AdminKey, LedgerPage } from "../api/admin.js";
import { byId, el, setBusy, whileBusy } from "../dom.js";
import type { I18n } from "../i18n/i18n.js";
import { formatYuan, toMicro, yuanText } from "../money.js";
import { cell, dateTime, explainAdmin, statusText } from "./admin-words.js";

export const LEDGER_PAGE_SIZE = 10;

export interface ManageHooks {
  say(text: string, kind?: "info" | "error"): void;
  /** The account changed (balance, status): the list should show it. */
  changed(): void;
}

/**
 * One account, for an operator: its figures, recharge, disable and enable,
 * its keys (issue, disable, enable) and its ledger, a page at a time. A new
 * key is shown once, here, with a copy button; it is gone when the operator
 * hides it or moves to another account.
 */
export class ManageView {
  readonly #section = byId("manage", HTMLElement);
  readonly #heading = byId("manage-heading", HTMLElement);
  readonly #facts = byId("manage-facts", HTMLDListElement);
  readonly #toggle = byId("toggle-account", HTMLButtonElement);
  readonly #issue = byId("issue-key", HTMLButtonElement);
  readonly #rechargeForm = byId("recharge-form", HTMLFormElement);
  readonly #rechargeYuan = byId("recharge-yuan", HTMLInputElement);
  readonly #rechargeNote = byId("recharge-note", HTMLInputElement);
  readonly #rechargeButton = byId("recharge", HTMLButtonElement);
  readonly #keysBody = byId("keys", HTMLTableElement).tBodies[0] ?? el("tbody");
  readonly #keysEmpty = byId("keys-empty", HTMLElement);
  readonly #ledgerBody = byId("ledger", HTMLTableElement).tBodies[0] ?? el("tbody");
  readonly #ledgerEmpty = byId("ledger-empty", HTMLElement);
  readonly #ledgerPage = byId("ledger-page", HTMLElement);
  readonly #older = byId("ledger-older", HTMLButtonElement);
  readonly #newest = byId("ledger-newest", HTMLButtonElement);
  readonly #newKey = byId("new-key", HTMLElement);
  readonly #newKeyValue = byId("new-key-value", HTMLInputElement);

  #admin: AdminClient | undefined;
  #account: AdminAccount | undefined;
  #keys: AdminKey[] = [];
  #ledger: LedgerPage = { entries: [], next_before: null };
  /** The `before` cursor of each page seen so far; the first page has none. */
  #cursors: Array<number | undefined> = [undefined];

  constructor(
    private readonly i18n: I18n,
    private readonly hooks: ManageHooks,
  ) {
    byId("close-manage", HTMLButtonElement).addEventListener("click", () => this.close());
    byId("hide-key", HTMLButtonElement).addEventListener("click", () => this.#hideKey());
    byId("copy-key", HTMLButtonElement).addEventListener("click", () => void this.#copyKey());
    this.#toggle.addEventListener("click", () => void this.#toggleStatus());
    this.#issue.addEventListener("click", () => void this.#issueKey());
    this.#rechargeForm.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.#recharge();
    });
    this.#older.addEventListener("click", () => void this.#loadLedger(this.#cursors.length + 1));
    this.#newest.addEventListener("click", () => void this.#loadLedger(1));
    i18n.onChange(() => this.render());
  }

  get accountId(): string | undefined {
    return this.#account?.account_id;
  }

  /** Shows an account; `apiKey` is a key just issued for it, shown this once. */
  async open(admin: AdminClient, account: AdminAccount, apiKey?: string): Promise<void> {
    this.#admin = admin;
    this.#account = account;
    this.#keys = [];
    this.#ledger = { entries: [], next_before: null };
    this.#cursors = [undefined];
    this.#hideKey();
    this.#section.hidden = false;
    this.render();
    if (apiKey) this.#showKey(apiKey);
    else this.#heading.focus();
    try {
      const [keys] = await Promise.all([admin.listKeys(account.account_id), this.#loadLedger(1)]);
      this.#keys = keys.keys;
      this.render();
    } catch (error) {
      this.hooks.say(explainAdmin(error, this.i18n), "error");
    }
  }

  close(): void {
    this.#account = undefined;
    this.#hideKey();
    this.#section.hidden = true;
  }

  render(): void {
    const account = this.#account;
    if (!account) return;
    const { i18n } = this;
    this.#heading.textContent = i18n.t("manageHeading", { name: account.name });
    const fact = (label: string, value: Node | string) => el("div", {}, el("dt", {}, label), el("dd", {}, value));
    this.#facts.replaceChildren(
      fact(i18n.t("colId"), el("code", {}, account.account_id)),
      fact(i18n.t("colStatus"), statusText(i18n, account.status)),
      fact(i18n.t("colBalance"), yuanText(i18n, account.balance_yuan)),
      fact(i18n.t("accountRecharged"), yuanText(i18n, account.total_recharge_yuan)),
      fact(i18n.t("accountConsumed"), yuanText(i18n, account.total_consumed_yuan)),
      fact(i18n.t("colPrice"), i18n.t("pricePerWan", { price: formatYuan(account.price_per_wan_yuan, i18n.locale) })),
      fact(i18n.t("colCreated"), dateTime(i18n, account.created_at)),
    );
    this.#toggle.textContent = i18n.t(account.status === "active" ? "disableAccount" : "enableAccount");
    this.#renderKeys();
    this.#renderLedger();
  }

  #renderKeys(): void {
    const { i18n } = this;
    this.#keysEmpty.hidden = this.#keys.length > 0;
    this.#keysBody.replaceChildren(
      ...this.#keys.map((key) => {
        const action = key.status === "active" ? "disable" : "enable";
        const button = el(
          "button",
          { type: "button", "aria-label": i18n.t(action === "disable" ? "disableKeyLabel" : "enableKeyLabel", { prefix: key.prefix }) },
          i18n.t(action === "disable" ? "disableKey" : "enableKey"),
        );
        button.addEventListener("click", () => void this.#setKeyStatus(key, action, button));
        return el(
          "tr",
          {},
          cell(i18n.t("colPrefix"), el("code", {}, `${key.prefix}…`)),
          cell(i18n.t("colStatus"), statusText(i18n, key.status)),
          cell(i18n.t("colCreated"), dateTime(i18n, key.created_at)),
          cell(i18n.t("colActions"), button),
        );
      }),
    );
  }

  #renderLedger(): void {
    const { i18n } = this;
    const { entries } = this.#ledger;
    const page = this.#cursors.length;
    this.#ledgerEmpty.hidden = entries.length > 0;
    this.#ledgerBody.replaceChildren(
      ...entries.map((entry) => {
        const kind = entry.kind === "recharge" ? "kindRecharge" : entry.kind === "charge" ? "kindCharge" : "kindReversal";
        const amount = yuanText(i18n, entry.amount_yuan);
        const chars =
          entry.raw_chars === null
            ? "—"
            : i18n.t("charsValue", { raw: entry.raw_chars, billable: entry.billable_chars ?? entry.raw_chars });
        return el(
          "tr",
          {},
          cell(i18n.t("colTime"), dateTime(i18n, entry.created_at)),
          cell(i18n.t("colKind"), i18n.t(kind)),
          el("td", { "data-label": i18n.t("colAmount"), class: "num" }, toMicro(entry.amount_yuan) > 0 ? `+${amount}` : amount),
          el("td", { "data-label": i18n.t("colBalanceAfter"), class: "num" }, yuanText(i18n, entry.balance_after_yuan)),
          cell(i18n.t("colChars"), chars),
          cell(i18n.t("colNote"), entry.note ?? ""),
        );
      }),
    );
    this.#ledgerPage.textContent = i18n.t("ledgerPage", { page });
    // A full page may have more behind it; a short one is the last.
    this.#older.hidden = entries.length < LEDGER_PAGE_SIZE || this.#ledger.next_before === null;
    this.#newest.hidden = page === 1;
  }

  /** Loads page `page` (1 = newest); a page after the last seen one follows its `next_before`. */
  async #loadLedger(page: number): Promise<void> {
    const admin = this.#admin;
    const account = this.#account;
    if (!admin || !account) return;
    const cursors = page === 1 ? [undefined] : [...this.#cursors, this.#ledger.next_before ?? undefined];
    try {
      this.#ledger = await admin.ledger(account.account_id, LEDGER_PAGE_SIZE, cursors[cursors.length - 1]);
      this.#cursors = cursors;
      this.#renderLedger();
    } catch (error) {
      this.hooks.say(explainAdmin(error, this.i18n), "error");
    }
  }

  async #recharge(): Promise<void> {
    const admin = this.#admin;
    const account = this.#account;
    if (!admin || !account) return;
    const yuan = this.#rechargeYuan.value.trim();
    const note = this.#rechargeNote.value.trim();
    await whileBusy(
      this.#rechargeButton,
      this.i18n.t("recharge"),
      () => this.i18n.t("recharge"),
      async () => {
        try {
          const updated = await admin.recharge(account.account_id, yuan, note || undefined);
          this.#account = updated;
          this.#rechargeYuan.value = "";
          this.#rechargeNote.value = "";
          this.render();
          this.hooks.say(
            this.i18n.t("recharged", {
              name: updated.name,
              amount: yuanText(this.i18n, updated.entry.amount_yuan),
              balance: yuanText(this.i18n, updated.balance_yuan),
            }),
          );
          this.hooks.changed();
          await this.#loadLedger(1);
        } catch (error) {
          this.hooks.say(explainAdmin(error, this.i18n), "error");
          this.#rechargeYuan.focus();
        }
      },
    );
  }

  async #toggleStatus(): Promise<void> {
    const admin = this.#admin;
    const account = this.#account;
    if (!admin || !account) return;
    const action = account.status === "active" ? "disable" : "enable";
    await whileBusy(
      this.#toggle,
      this.#toggle.textContent ?? "",
      () => this.#toggle.textContent ?? "",
      async () => {
        try {
          this.#account = await admin.setAccountStatus(account.account_id, action);
          this.hooks.say(this.i18n.t(action === "disable" ? "accountDisabled" : "accountEnabled", { name: account.name }));
          this.hooks.changed();
        } catch (error) {
          this.hooks.say(explainAdmin(error, this.i18n), "error");
        }
      },
    );
    this.render();
  }

  async #issueKey(): Promise<void> {
    const admin = this.#admin;
    const account = this.#account;
    if (!admin || !account) return;
    await whileBusy(
      this.#issue,
      this.i18n.t("issueKey"),
      () => this.i18n.t("issueKey"),
      async () => {
        try {
          const issued = await admin.issueKey(account.account_id);
          this.hooks.say(this.i18n.t("keyIssued", { name: account.name }));
          this.#showKey(issued.api_key);
          this.#keys = (await admin.listKeys(account.account_id)).keys;
          this.render();
        } catch (error) {
          this.hooks.say(explainAdmin(error, this.i18n), "error");
        }
      },
    );
  }

  async #setKeyStatus(key: AdminKey, action: "disable" | "enable", button: HTMLButtonElement): Promise<void> {
    const admin = this.#admin;
    const account = this.#account;
    if (!admin || !account) return;
    setBusy(button, true, button.textContent ?? "", button.textContent ?? "");
    try {
      // By key id: the whole key is never needed again after it was shown.
      await admin.setKeyStatus(key.key_id, action);
      this.hooks.say(this.i18n.t(action === "disable" ? "keyDisabled" : "keyEnabled", { prefix: key.prefix }));
      this.#keys = (await admin.listKeys(account.account_id)).keys;
      this.render();
    } catch (error) {
      setBusy(button, false, "", button.textContent ?? "");
      this.hooks.say(explainAdmin(error, this.i18n), "error");
    }
  }

  #showKey(apiKey: string): void {
    this.#newKeyValue.value = apiKey;
    this.#newKey.hidden = false;
    this.#newKeyValue.focus();
    this.#newKeyValue.select();
  }

  #hideKey(): void {
    this.#newKeyValue.value = "";
    this.#newKey.hidden = true;
  }

  async #copyKey(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.#newKeyValue.value);
      this.hooks.say(this.i18n.t("copied"));
    } catch {
      // No clipboard permission (or no secure context): leave the key selected for Ctrl+C.
      this.#newKeyValue.focus();
      this.#newKeyValue.select();
      this.hooks.say(this.i18n.t("copyFailed"), "error");
    }
  }
}
