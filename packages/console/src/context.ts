import type { CustomerState } from "./api/customer.js";
import type { I18n } from "./i18n/i18n.js";
import type { TabSession } from "./session.js";

/** What every view gets: built once in main.ts, no module-level state. */
export interface Context {
  i18n: I18n;
  session: TabSession;
  customer: CustomerState;
  /** This page's origin + "/admin/v1". */
  adminBase: string;
}
