import { CustomerState } from "./api/customer.js";
import type { Context } from "./context.js";
import { byId } from "./dom.js";
import { I18n } from "./i18n/i18n.js";
import { TabSession } from "./session.js";
import { setUpAccount } from "./views/account.js";
import { setUpKey } from "./views/key.js";
import { setUpOperators } from "./views/operators.js";
import { setUpPlayground } from "./views/playground.js";
import { setUpTabs } from "./views/tabs.js";

function start(): void {
  const session = new TabSession();
  const i18n = new I18n(session.lang ?? "zh");
  const ctx: Context = {
    i18n,
    session,
    // Same origin only: the key and the token never leave for another host.
    customer: new CustomerState(`${location.origin}/api/v1`),
    adminBase: `${location.origin}/admin/v1`,
  };

  i18n.apply(document);
  i18n.onChange(() => i18n.apply(document));
  byId("lang", HTMLButtonElement).addEventListener("click", () => {
    const next = i18n.lang === "zh" ? "en" : "zh";
    session.lang = next;
    i18n.set(next);
  });

  // WebCrypto (crypto.subtle) exists only in secure contexts: HTTPS, or 127.0.0.1 and localhost.
  if (!globalThis.isSecureContext || globalThis.crypto?.subtle === undefined) byId("insecure", HTMLElement).hidden = false;

  setUpKey(ctx);
  setUpPlayground(ctx);
  const account = setUpAccount(ctx);
  setUpOperators(ctx);

  const customerKey = byId("customer-key", HTMLElement);
  setUpTabs((name) => {
    // The customer key belongs to the playground and the account page; operators use the admin token.
    customerKey.hidden = name === "operators";
    if (name === "account") account.refresh();
  });
}

start();
