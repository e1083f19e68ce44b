import { byId } from "../dom.js";

export type TabName = "playground" | "account" | "operators";
const NAMES: readonly TabName[] = ["playground", "account", "operators"];

function isTabName(value: string): value is TabName {
  return (NAMES as readonly string[]).includes(value);
}

/**
 * The three pages as an ARIA tab list: arrow keys, Home and End move between
 * tabs (roving tabindex), and the location hash keeps the page on reload.
 * `onShow` runs whenever a page is shown.
 */
export function setUpTabs(onShow: (name: TabName) => void): void {
  const tabs = NAMES.map((name) => ({ name, tab: byId(`tab-${name}`, HTMLButtonElement), panel: byId(`panel-${name}`, HTMLElement) }));

  const select = (name: TabName, focus: boolean) => {
    for (const entry of tabs) {
      const selected = entry.name === name;
      entry.tab.setAttribute("aria-selected", String(selected));
      entry.tab.tabIndex = selected ? 0 : -1;
      entry.panel.hidden = !selected;
      if (selected && focus) entry.tab.focus();
    }
    if (location.hash !== `#${name}`) history.replaceState(null, "", `#${name}`);
    onShow(name);
  };

  tabs.forEach((entry, index) => {
    entry.tab.addEventListener("click", () => select(entry.name, false));
    entry.tab.addEventListener("keydown", (event) => {
      const last = tabs.length - 1;
      const target =
        event.key === "ArrowRight"
          ? (index + 1) % tabs.length
          : event.key === "ArrowLeft"
            ? (index + last) % tabs.length
            : event.key === "Home"
              ? 0
              : event.key === "End"
                ? last
                : undefined;
      const next = target === undefined ? undefined : tabs[target];
      if (!next) return;
      event.preventDefault();
      select(next.name, true);
    });
  });

  const fromHash = location.hash.slice(1);
  select(isTabName(fromHash) ? fromHash : "playground", false);
}
