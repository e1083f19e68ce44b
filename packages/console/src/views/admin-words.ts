import { AdminError } from "../api/admin.js";
import { el } from "../dom.js";
import type { I18n } from "../i18n/i18n.js";

/** An admin API failure in plain words; the service's own sentence (English) is kept for the rest. */
export function explainAdmin(error: unknown, i18n: I18n): string {
  if (error instanceof AdminError) {
    if (error.status === 401) return i18n.t("adminUnauthorized");
    if (error.status === 404 && error.message.includes("FANGYAN_ADMIN_TOKEN")) return i18n.t("adminDisabled");
    return i18n.t("adminFailed", { message: error.message });
  }
  // fetch rejects with a TypeError when the service cannot be reached.
  if (error instanceof TypeError) return i18n.t("errConnection");
  return i18n.t("errGeneric", { message: error instanceof Error ? error.message : String(error) });
}

export function statusText(i18n: I18n, status: "active" | "disabled"): HTMLElement {
  return el("span", { class: `status-${status}` }, i18n.t(status === "active" ? "statusActive" : "statusDisabled"));
}

export function dateTime(i18n: I18n, iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(i18n.locale, { hour12: false });
}

/** A table cell that carries its column name, which the phone layout shows beside the value. */
export function cell(label: string, ...content: Array<Node | string>): HTMLTableCellElement {
  return el("td", { "data-label": label }, ...content);
}
