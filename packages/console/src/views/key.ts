import { AuthError, InvalidApiKeyError } from "@fangyan/client";
import type { Context } from "../context.js";
import { byId, say, whileBusy } from "../dom.js";
import { explain } from "../explain.js";
import { toMicro, yuanText } from "../money.js";

/**
 * The API key: pasted once, checked by loading the voices and the account,
 * then kept in this tab only. "Forget" drops it from the tab and the page.
 */
export function setUpKey(ctx: Context): void {
  const { i18n, customer, session } = ctx;
  const form = byId("key-form", HTMLFormElement);
  const input = byId("api-key", HTMLInputElement);
  const button = byId("connect", HTMLButtonElement);
  const connected = byId("key-connected", HTMLElement);
  const connectedAs = byId("connected-as", HTMLElement);
  const balance = byId("balance", HTMLElement);
  const forget = byId("forget-key", HTMLButtonElement);
  const message = byId("key-message", HTMLElement);

  const render = () => {
    const connection = customer.connection;
    form.hidden = connection !== undefined;
    connected.hidden = connection === undefined;
    if (!connection) return;
    connectedAs.textContent = i18n.t("connectedAs", { name: connection.account.name, key: connection.keyHint });
    balance.textContent = yuanText(i18n, connection.account.balanceYuan);
    // Exact, for tests and assistive tools that want the number rather than the text.
    balance.dataset.micro = String(toMicro(connection.account.balanceYuan));
  };

  const connect = (apiKey: string, moveFocus: boolean) =>
    whileBusy(
      button,
      i18n.t("connecting"),
      () => i18n.t("connect"),
      async () => {
        try {
          await customer.connect(apiKey);
          session.apiKey = apiKey;
          input.value = "";
          say(message, "");
          if (moveFocus) focusNextStep();
        } catch (error) {
          // A refused key is not kept; a network failure keeps it for the next try.
          if (error instanceof InvalidApiKeyError || error instanceof AuthError) session.apiKey = undefined;
          say(message, explain(error, i18n), "error");
        }
      },
    );

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const apiKey = input.value.trim();
    if (apiKey === "") {
      say(message, i18n.t("enterKey"), "error");
      input.focus();
      return;
    }
    void connect(apiKey, true);
  });

  forget.addEventListener("click", () => {
    session.apiKey = undefined;
    customer.forget();
    say(message, i18n.t("keyForgotten"));
    input.focus();
  });

  customer.onChange(render);
  i18n.onChange(render);
  render();

  const remembered = session.apiKey;
  if (remembered) void connect(remembered, false);
}

/** After connecting, the next thing to do is on whichever page is shown. */
function focusNextStep(): void {
  const dialect = document.getElementById("dialect");
  const refresh = document.getElementById("refresh-account");
  if (dialect && !byId("panel-playground", HTMLElement).hidden) dialect.focus();
  else refresh?.focus();
}
