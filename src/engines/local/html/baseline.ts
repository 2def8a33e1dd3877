import type { El } from "./dom.js";

/** The service's own main-content rule: these elements go unless they contain a FORCE_KEEP match. */
const TAGS = new Set(["header", "footer", "nav", "aside"]);
const CLASSES = new Set(["header", "top", "navbar", "footer", "bottom", "sidebar", "side", "aside", "modal", "popup", "overlay", "ad", "ads", "advert", "lang-selector", "language", "social", "social-media", "social-links", "menu", "navigation", "breadcrumbs", "share", "widget", "cookie", "fc-decoration"]);
const IDS = new Set(["header", "footer", "sidebar", "modal", "ad", "language-selector", "social", "nav", "breadcrumbs", "share", "widget", "cookie"]);
const FORCE_KEEP_CLASSES = new Set(["swoogo-cols", "swoogo-text", "swoogo-table-div", "swoogo-space", "swoogo-alert", "swoogo-sponsors", "swoogo-title", "swoogo-tabs", "swoogo-logo", "swoogo-image", "swoogo-button", "swoogo-agenda"]);

function classes(el: El): string[] {
  const value = el.attr("class");
  return value === undefined ? [] : value.split(/\s+/);
}

function isExcluded(el: El): boolean {
  if (TAGS.has(el.tag)) return true;
  const id = el.attr("id");
  if (id !== undefined && IDS.has(id)) return true;
  return classes(el).some((name) => CLASSES.has(name));
}

function isForceKept(el: El): boolean {
  return el.attr("id") === "main" || classes(el).some((name) => FORCE_KEEP_CLASSES.has(name));
}

function containsForceKept(el: El): boolean {
  for (const child of el.children) {
    if (typeof child !== "string" && (isForceKept(child) || containsForceKept(child))) return true;
  }
  return false;
}

/**
 * The hosted service's exclude-list rule for onlyMainContent (header, footer, nav, aside and
 * 38 class/id selectors), kept as a reference point for the reader-view extraction.
 */
export function removeNonMainByList(root: El): void {
  const children = root.children;
  let kept = 0;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (typeof child !== "string") {
      if (isExcluded(child) && !containsForceKept(child)) continue;
      removeNonMainByList(child);
    }
    children[kept++] = child;
  }
  if (kept !== children.length) children.length = kept;
}
