import { en, type MessageKey, zh } from "./messages.js";

export type Lang = "zh" | "en";
export type Vars = Record<string, string | number>;

const TABLES: Record<Lang, Record<MessageKey, string>> = { zh, en };
const HTML_LANG: Record<Lang, string> = { zh: "zh-CN", en: "en" };

export function isLang(value: string | undefined): value is Lang {
  return value === "zh" || value === "en";
}

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(zh, value);
}

/** Fills `{name}` slots; a slot without a value stays visible, so a missing value is noticed. */
export function format(template: string, vars: Vars = {}): string {
  return template.replace(/\{(\w+)\}/g, (slot, name: string) => (name in vars ? String(vars[name]) : slot));
}

/**
 * The current language and its strings. Static text in index.html names its
 * string with `data-i18n` (text), `data-i18n-label` (aria-label) or
 * `data-i18n-placeholder`; views that build text themselves re-render on `onChange`.
 */
export class I18n {
  #lang: Lang;
  readonly #listeners: Array<() => void> = [];

  constructor(lang: Lang = "zh") {
    this.#lang = lang;
  }

  get lang(): Lang {
    return this.#lang;
  }

  /** A locale for Intl formatting of numbers and times. */
  get locale(): string {
    return HTML_LANG[this.#lang];
  }

  t(key: MessageKey, vars?: Vars): string {
    return format(TABLES[this.#lang][key], vars);
  }

  set(lang: Lang): void {
    if (lang === this.#lang) return;
    this.#lang = lang;
    for (const listener of this.#listeners) listener();
  }

  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Writes the static strings into the document and sets `<html lang>` and the title. */
  apply(doc: Document): void {
    doc.documentElement.lang = HTML_LANG[this.#lang];
    doc.title = this.t("title");
    // forEach rather than for-of: NodeList iteration needs DOM.Iterable, which the tests' config lacks.
    doc.querySelectorAll<HTMLElement>("[data-i18n]").forEach((element) => {
      const key = element.dataset.i18n ?? "";
      if (isMessageKey(key)) element.textContent = this.t(key);
    });
    doc.querySelectorAll<HTMLElement>("[data-i18n-label]").forEach((element) => {
      const key = element.dataset.i18nLabel ?? "";
      if (isMessageKey(key)) element.setAttribute("aria-label", this.t(key));
    });
    doc.querySelectorAll<HTMLElement>("[data-i18n-placeholder]").forEach((element) => {
      const key = element.dataset.i18nPlaceholder ?? "";
      if (isMessageKey(key)) element.setAttribute("placeholder", this.t(key));
    });
  }
}
