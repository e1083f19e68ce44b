/** The element with this id and type; a missing one is a bug in index.html, so it throws at start. */
export function byId<T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`#${id} is missing from index.html or is not a ${type.name}`);
  return element;
}

type Attributes = Record<string, string | number | boolean | undefined>;

/**
 * Creates an element. Attributes go through setAttribute (never `style`: the
 * Content-Security-Policy forbids inline styles); `true` sets a boolean
 * attribute, `false` and undefined leave it out. Strings become text nodes,
 * so nothing is ever parsed as HTML.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children);
  return element;
}

/** Shows a message in a live region; errors get role=alert so screen readers announce them at once. */
export function say(region: HTMLElement, text: string, kind: "info" | "error" = "info"): void {
  region.textContent = text;
  region.classList.toggle("error", kind === "error");
  region.setAttribute("role", kind === "error" ? "alert" : "status");
}

/** Marks a button busy: disabled, aria-busy, and a label saying what is going on. */
export function setBusy(button: HTMLButtonElement, busy: boolean, busyText: string, idleText: string): void {
  button.disabled = busy;
  button.setAttribute("aria-busy", String(busy));
  button.textContent = busy ? busyText : idleText;
}

/** Runs `task` with the button busy, whatever happens. */
export async function whileBusy<T>(
  button: HTMLButtonElement,
  busyText: string,
  idleText: () => string,
  task: () => Promise<T>,
): Promise<T> {
  setBusy(button, true, busyText, idleText());
  try {
    return await task();
  } finally {
    setBusy(button, false, busyText, idleText());
  }
}
