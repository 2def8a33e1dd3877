import type { CheckView, MonitorRow } from "../../app/ui-data/index.js";
import type { CheckSummary } from "../../core/index.js";
import { html, type Html } from "../html.js";
import { badge, href, page, time, type ViewContext } from "../layout.js";

/** How many checks a monitor's page shows, newest first. */
export const MONITOR_CHECKS = 50;

function counts(summary: CheckSummary | null | undefined): Html {
  if (!summary) return html`<span class="muted">-</span>`;
  return html`<span class="counts">${summary.changed} changed · ${summary.new} new · ${summary.removed} removed · ${summary.error} failed${summary.blocked ? ` (${summary.blocked} blocked)` : ""} · ${summary.totalPages} pages</span>`;
}

function schedule(m: MonitorRow): Html {
  return html`<td data-col="schedule">${m.words ?? html`<span class="muted">see cron</span>`}</td><td data-col="cron">${m.cron ? html`<code>${m.cron}</code>` : html`<span class="muted">-</span>`}</td>`;
}

/** Every monitor: schedule, next due, the last check and its undelivered notifications. */
export function monitorsView(ctx: ViewContext, monitors: MonitorRow[]): Html {
  const body = monitors.length
    ? html`<div class="scroll"><table class="monitors">
<thead><tr><th>Monitor</th><th>Source</th><th>Schedule</th><th>Cron</th><th>Time zone</th><th>Next due</th><th>Last check</th><th>Counts</th><th class="num">Failed notifications</th></tr></thead>
<tbody>${monitors.map(
        (m) => html`<tr data-monitor="${m.id}">
<td><a href="${href(ctx, `/monitors/${m.id}`)}">${m.name}</a></td>
<td>${m.source === "file" ? html`file${m.file ? html` <code class="muted">${m.file}</code>` : ""}` : "serve"}</td>
${schedule(m)}
<td>${m.timezone}</td>
<td>${time(m.nextDue)}</td>
<td data-col="last">${m.lastCheck ? html`${badge("status", m.lastCheck.status)} ${time(m.lastCheck.startedAt)}` : html`<span class="muted">never</span>`}</td>
<td>${counts(m.lastCheck?.summary)}</td>
<td class="num" data-col="failed">${m.failedNotifications}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No monitors. <code>scrapeline watch</code> registers the pipeline files with a schedule.</p>`;
  return page(ctx, "Monitors", html`<h1>Monitors</h1>${body}`, "monitors");
}

function notifications(checks: CheckView[]): Html {
  const rows = checks.flatMap((c) => c.notifications.map((n) => ({ check: c.id, n })));
  if (!rows.length) return html`<p class="muted">No notifications were sent for these checks.</p>`;
  return html`<div class="scroll"><table class="notifications">
<thead><tr><th>Check</th><th>Channel</th><th>Target</th><th>Event</th><th>Status</th><th class="num">Attempts</th><th>Error</th><th>At</th></tr></thead>
<tbody>${rows.map(
    ({ check, n }) => html`<tr data-notification="${n.id}">
<td>#${check}</td><td>${n.channel}</td><td><code>${n.target}</code></td><td>${n.event}</td>
<td>${badge("status", n.sent ? "sent" : "failed")}${n.status !== undefined ? html` <span class="muted">HTTP ${n.status}</span>` : ""}</td>
<td class="num">${n.attempts}</td><td class="reason">${n.error ?? ""}</td><td>${time(n.at)}</td></tr>`,
  )}</tbody></table></div>`;
}

/** One monitor: its settings, its newest checks (each linked to its run) and their notifications. */
export function monitorView(ctx: ViewContext, m: MonitorRow, checks: CheckView[]): Html {
  const facts = html`<dl class="meta facts">
<dt>Source</dt><dd>${m.source === "file" ? html`pipeline file${m.file ? html` <code>${m.file}</code>` : ""}` : "serve (/v2/monitor)"}</dd>
<dt>Schedule</dt><dd data-col="schedule">${m.words ?? m.schedule}</dd>
<dt>Cron</dt><dd data-col="cron">${m.cron ? html`<code>${m.cron}</code>` : html`<span class="muted">- (an interval)</span>`}</dd>
<dt>Time zone</dt><dd>${m.timezone}</dd>
<dt>Next due</dt><dd>${time(m.nextDue)}</dd></dl>`;
  const list = checks.length
    ? html`<div class="scroll"><table class="checks">
<thead><tr><th>Check</th><th>Status</th><th>Trigger</th><th>Slot</th><th>Started</th><th>Counts</th><th>Run</th><th>Error</th></tr></thead>
<tbody>${checks.map(
        (c) => html`<tr data-check="${c.id}">
<td>#${c.id}</td><td>${badge("status", c.status)}</td><td>${c.trigger}</td><td>${time(c.slot)}</td><td>${time(c.startedAt)}</td>
<td>${counts(c.summary)}</td>
<td>${c.runId !== null ? html`<a href="${href(ctx, `/runs/${c.runId}`)}">#${c.runId}</a>` : html`<span class="muted">-</span>`}</td>
<td class="reason">${c.error ?? ""}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No checks yet.</p>`;
  return page(
    ctx,
    m.name,
    html`<p><a href="${href(ctx, "/monitors")}">← Monitors</a></p><h1>${m.name}</h1>${facts}<h2>Checks</h2>${list}<h2>Notifications</h2>${notifications(checks)}`,
    "monitors",
  );
}
