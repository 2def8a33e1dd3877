/**
 * The UI's stylesheet and script, kept in the package as strings (no CDN, no build step to copy
 * files). Served from {base}/assets/; the Content-Security-Policy allows nothing else.
 */
export const STYLESHEET = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa;
  --link: #0550ae; --add: #dafbe1; --add-fg: #116329; --del: #ffebe9; --del-fg: #a40e26; --focus: #0969da; --warn: #9a6700; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #30363d; --panel: #161b22;
    --link: #79c0ff; --add: #12361f; --add-fg: #7ee787; --del: #3d1418; --del-fg: #ffa198; --focus: #58a6ff; --warn: #d29922; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 8px; top: 8px; background: var(--panel); padding: 4px 8px; z-index: 10; }
header.top { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline; padding: 10px 16px; border-bottom: 1px solid var(--line); background: var(--panel); }
header.top .brand { font-weight: 700; text-decoration: none; color: var(--fg); }
header.top nav a { margin-right: 12px; }
main { padding: 12px 16px 48px; max-width: 1400px; margin: 0 auto; }
h1 { font-size: 1.4em; margin: 8px 0 12px; overflow-wrap: anywhere; }
h2 { font-size: 1.15em; margin: 24px 0 8px; }
h3 { font-size: 1em; margin: 16px 0 6px; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; background: var(--panel); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.url { overflow-wrap: anywhere; min-width: 12em; }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; border: 1px solid var(--line); font-size: 0.85em; white-space: nowrap; }
.status-succeeded, .status-completed, .status-sent, .change-same { color: var(--add-fg); }
.status-failed, .change-removed { color: var(--del-fg); }
.status-interrupted, .status-budget-exhausted, .change-changed { color: var(--warn); }
.change-new { color: var(--link); }
form.filters { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: end; margin: 8px 0 12px; }
form.filters label { display: flex; flex-direction: column; font-size: 0.9em; }
select, input, button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 4px 6px; }
button { cursor: pointer; background: var(--panel); }
.pager { display: flex; gap: 16px; margin: 12px 0; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
.cards { display: flex; flex-wrap: wrap; gap: 8px; margin: 8px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; background: var(--panel); min-width: 7em; }
.card b { display: block; font-size: 1.2em; }
.markdown { border: 1px solid var(--line); border-radius: 6px; padding: 4px 16px; overflow-wrap: anywhere; }
.markdown pre, pre.raw { overflow-x: auto; background: var(--panel); padding: 8px; border-radius: 4px; }
pre.raw { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 70vh; }
.image-ref { font-size: 0.9em; }
iframe.preview { width: 100%; height: 60vh; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.shots img { max-width: 100%; border: 1px solid var(--line); }
.diff { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; }
.diff table { table-layout: fixed; }
.diff-side table { min-width: 640px; }
.diff td { border: 0; padding: 0 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
.diff .ln { width: 4.5em; color: var(--muted); text-align: right; user-select: none; }
.diff .mark { width: 1.5em; user-select: none; }
.diff tr.add td.text, .diff td.text.add { background: var(--add); color: var(--add-fg); }
.diff tr.del td.text, .diff td.text.del { background: var(--del); color: var(--del-fg); }
.diff td.text.empty { background: var(--panel); }
.diff details.fold > summary { padding: 2px 8px; background: var(--panel); color: var(--muted); cursor: pointer; }
.diff .fold-row > td { padding: 0; }
.tabs { display: flex; gap: 12px; margin: 6px 0; }
.tabs [aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--fg); }
.timeline { list-style: none; padding: 0; margin: 0; border-left: 2px solid var(--line); }
.timeline li { margin: 0 0 10px 0; padding-left: 12px; position: relative; }
.timeline li::before { content: ""; position: absolute; left: -7px; top: 7px; width: 12px; height: 12px; border-radius: 50%; background: var(--link); }
svg.chart { width: 100%; max-width: 900px; height: auto; }
svg.chart .axis { stroke: var(--muted); }
svg.chart text { fill: var(--muted); font-size: 11px; }
svg.chart .bar { fill: var(--link); }
svg.chart .bar-changed { fill: var(--warn); }
svg.chart a:focus-visible .bar, svg.chart a:hover .bar, svg.chart a:hover .bar-changed { fill: var(--focus); }
@media (max-width: 640px) {
  body { font-size: 14px; }
  main { padding: 8px 8px 40px; }
  th, td { padding: 4px 5px; }
  .wide { display: none; }
  dl.meta { grid-template-columns: 1fr; }
  dl.meta dd { margin-bottom: 4px; }
}
`;

/**
 * The niceties, all optional (every page works without script): times shown in the reader's
 * time zone, `n`/`p` to follow a page's next/previous links, `/` to the first filter, and a
 * button to copy the raw markdown.
 */
export const SCRIPT = `
"use strict";
(function () {
  for (const el of document.querySelectorAll("time[datetime]")) {
    const at = new Date(el.getAttribute("datetime"));
    if (!isNaN(at.getTime())) { el.title = el.getAttribute("datetime"); el.textContent = at.toLocaleString(); }
  }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = (event.target && event.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (event.key === "n" || event.key === "p") {
      const link = document.querySelector(event.key === "n" ? "a[rel=next]" : "a[rel=prev]");
      if (link) link.click();
    } else if (event.key === "/") {
      const field = document.querySelector("form.filters select, form.filters input");
      if (field) { event.preventDefault(); field.focus(); }
    }
  });
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.hidden = false;
    button.addEventListener("click", function () {
      const source = document.getElementById(button.getAttribute("data-copy"));
      if (source && navigator.clipboard) navigator.clipboard.writeText(source.textContent).then(function () { button.textContent = "Copied"; });
    });
  }
})();
`;

/** The tab icon (a browser asks for one; without it every page logs a 404). */
export const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0969da"/><path d="M4 11h2V7H4zm3 0h2V4H7zm3 0h2V8h-2z" fill="#fff"/></svg>`;
