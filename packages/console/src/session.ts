import { isLang, type Lang } from "./i18n/i18n.js";

const API_KEY = "fangyan.apiKey";
const ADMIN_TOKEN = "fangyan.adminToken";
const LANG = "fangyan.lang";

/**
 * What the console remembers: only in this tab (sessionStorage), so a key or
 * token is gone when the tab closes and is never shared with other tabs.
 * Storage can be unavailable (private modes, policies); the console then
 * works without remembering.
 */
export class TabSession {
  constructor(private readonly storage: Storage | undefined = safeSessionStorage()) {}

  get apiKey(): string | undefined {
    return this.read(API_KEY);
  }

  set apiKey(value: string | undefined) {
    this.write(API_KEY, value);
  }

  get adminToken(): string | undefined {
    return this.read(ADMIN_TOKEN);
  }

  set adminToken(value: string | undefined) {
    this.write(ADMIN_TOKEN, value);
  }

  get lang(): Lang | undefined {
    const value = this.read(LANG);
    return isLang(value) ? value : undefined;
  }

  set lang(value: Lang | undefined) {
    this.write(LANG, value);
  }

  private read(name: string): string | undefined {
    try {
      return this.storage?.getItem(name) ?? undefined;
    } catch {
      return undefined;
    }
  }

  private write(name: string, value: string | undefined): void {
    try {
      if (value === undefined) this.storage?.removeItem(name);
      else this.storage?.setItem(name, value);
    } catch {
      // Not remembered; the value still works in this page.
    }
  }
}

function safeSessionStorage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}
