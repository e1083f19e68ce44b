import { type AdminAccount, AdminClient, AdminError } from "../api/admin.js";
import type { Context } from "../context.js";
import { byId, el, say, whileBusy } from "../dom.js";
import { formatYuan, yuanText } from "../money.js";
import { cell, explainAdmin, statusText } from "./admin-words.js";
import { ManageView } from "./manage.js";

/**
 * The operator pages: the admin token (kept in this tab only), the list of
 * accounts, a form to create one, and the account being managed.
 */
export function setUpOperators(ctx: Context): void {
  const { i18n, session } = ctx;
  const form = byId("admin-form", HTMLFormElement);
  const tokenInput = byId("admin-token", HTMLInputElement);
  const connectButton = byId("admin-connect", HTMLButtonElement);
  const connected = byId("admin-connected", HTMLElement);
  const message = byId("admin-message", HTMLElement);
  const area = byId("admin-area", HTMLElement);
  const accountsBody = byId("accounts", HTMLTableElement).tBodies[0] ?? el("tbody");
  const accountsEmpty = byId("accounts-empty", HTMLElement);
  const refreshButton = byId("refresh-accounts", HTMLButtonElement);
  const createForm = byId("create-form", HTMLFormElement);
  const newName = byId("new-name", HTMLInputElement);
  const newRecharge = byId("new-recharge", HTMLInputElement);
  const createButton = byId("create", HTMLButtonElement);

  let admin: AdminClient | undefined;
  let accounts: AdminAccount[] = [];
  const tell = (text: string, kind: "info" | "error" = "info") => say(message, text, kind);
  const manage = new ManageView(i18n, { say: tell, changed: () => void loadAccounts() });

  function render(): void {
    form.hidden = admin !== undefined;
    connected.hidden = admin === undefined;
    area.hidden = admin === undefined;
    renderAccounts();
  }

  function renderAccounts(): void {
    accountsEmpty.hidden = accounts.length > 0;
    accountsBody.replaceChildren(
      ...accounts.map((account) => {
        const button = el("button", { type: "button", "aria-label": i18n.t("manageLabel", { name: account.name }) }, i18n.t("manage"));
        button.addEventListener("click", () => {
          if (admin) void manage.open(admin, account).then(renderAccounts);
        });
        return el(
          "tr",
          { "aria-current": account.account_id === manage.accountId ? "true" : undefined },
          cell(i18n.t("colName"), account.name),
          cell(i18n.t("colId"), el("code", {}, account.account_id)),
          cell(i18n.t("colStatus"), statusText(i18n, account.status)),
          el("td", { "data-label": i18n.t("colBalance"), class: "num" }, yuanText(i18n, account.balance_yuan)),
          cell(i18n.t("colPrice"), i18n.t("pricePerWan", { price: formatYuan(account.price_per_wan_yuan, i18n.locale) })),
          cell(i18n.t("colActions"), button),
        );
      }),
    );
  }

  async function loadAccounts(): Promise<void> {
    if (!admin) return;
    try {
      accounts = (await admin.listAccounts()).accounts;
      renderAccounts();
    } catch (error) {
      tell(explainAdmin(error, i18n), "error");
    }
  }

  const connect = (token: string, moveFocus: boolean) =>
    whileBusy(
      connectButton,
      i18n.t("connecting"),
      () => i18n.t("connect"),
      async () => {
        try {
          const client = new AdminClient(token, ctx.adminBase);
          accounts = (await client.listAccounts()).accounts;
          admin = client;
          session.adminToken = token;
          tokenInput.value = "";
          render();
          // The connected line says so; the message region is for what happens next.
          tell("");
          if (moveFocus) newName.focus();
        } catch (error) {
          if (error instanceof AdminError && error.status === 401) session.adminToken = undefined;
          tell(explainAdmin(error, i18n), "error");
        }
      },
    );

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const token = tokenInput.value.trim();
    if (token === "") {
      tell(i18n.t("enterToken"), "error");
      tokenInput.focus();
      return;
    }
    void connect(token, true);
  });

  byId("forget-token", HTMLButtonElement).addEventListener("click", () => {
    admin = undefined;
    accounts = [];
    session.adminToken = undefined;
    manage.close();
    render();
    tell(i18n.t("tokenForgotten"));
    tokenInput.focus();
  });

  refreshButton.addEventListener("click", () => {
    void whileBusy(refreshButton, i18n.t("refresh"), () => i18n.t("refresh"), loadAccounts);
  });

  createForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const client = admin;
    if (!client) return;
    const name = newName.value.trim();
    const recharge = newRecharge.value.trim();
    void whileBusy(
      createButton,
      i18n.t("create"),
      () => i18n.t("create"),
      async () => {
        try {
          const created = await client.createAccount(name, recharge || undefined);
          newName.value = "";
          newRecharge.value = "";
          tell(i18n.t("created", { name: created.name }));
          await loadAccounts();
          await manage.open(client, created, created.api_key);
          renderAccounts();
        } catch (error) {
          tell(explainAdmin(error, i18n), "error");
          newName.focus();
        }
      },
    );
  });

  i18n.onChange(renderAccounts);
  render();
  const remembered = session.adminToken;
  if (remembered) void connect(remembered, false);
}
