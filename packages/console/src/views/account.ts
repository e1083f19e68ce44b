import type { Context } from "../context.js";
import { byId, say, whileBusy } from "../dom.js";
import { explain } from "../explain.js";
import { formatYuan, yuanText } from "../money.js";
import { describeTier } from "../tiers.js";

/** The customer's account: balance, tier and price, totals. Refreshed each time the page is shown. */
export function setUpAccount(ctx: Context): { refresh(): void } {
  const { i18n, customer } = ctx;
  const empty = byId("account-empty", HTMLElement);
  const body = byId("account-body", HTMLElement);
  const refreshButton = byId("refresh-account", HTMLButtonElement);
  const message = byId("account-message", HTMLElement);
  const fields = {
    name: byId("acct-name", HTMLElement),
    balance: byId("acct-balance", HTMLElement),
    tier: byId("acct-tier", HTMLElement),
    price: byId("acct-price", HTMLElement),
    recharged: byId("acct-recharged", HTMLElement),
    consumed: byId("acct-consumed", HTMLElement),
    next: byId("acct-next", HTMLElement),
  };

  const render = () => {
    const account = customer.connection?.account;
    empty.hidden = account !== undefined;
    body.hidden = account === undefined;
    if (!account) return;
    const { tier, next } = describeTier(i18n, account.totalRechargeYuan);
    fields.name.textContent = account.name;
    fields.balance.textContent = yuanText(i18n, account.balanceYuan);
    fields.tier.textContent = tier;
    fields.price.textContent = i18n.t("pricePerWan", { price: formatYuan(account.pricePerWanYuan, i18n.locale) });
    fields.recharged.textContent = yuanText(i18n, account.totalRechargeYuan);
    fields.consumed.textContent = yuanText(i18n, account.totalConsumedYuan);
    fields.next.textContent = next;
  };

  const refresh = () => {
    if (!customer.connection) return;
    void whileBusy(
      refreshButton,
      i18n.t("refresh"),
      () => i18n.t("refresh"),
      async () => {
        try {
          await customer.refreshAccount();
          say(message, "");
        } catch (error) {
          say(message, explain(error, i18n), "error");
        }
      },
    );
  };

  refreshButton.addEventListener("click", refresh);
  customer.onChange(render);
  i18n.onChange(render);
  render();
  return { refresh };
}
