import type { CommandModule } from "yargs";
import { databasePath } from "../../app/light.js";
import { EXIT } from "../exit-codes.js";
import { DB_OPTION, integerOption } from "../options.js";
import type { Io } from "../output.js";
import { table } from "../table.js";

interface Args {
  name?: string;
  db?: string;
  json: boolean;
  limit: number;
}

const counts = (s: { changed: number; new: number; removed: number; error: number } | null) => (s ? `${s.changed} changed, ${s.new} new, ${s.removed} removed${s.error ? `, ${s.error} failed` : ""}` : "-");

export function monitorsCommand(io: Io, setExit: (code: number) => void): CommandModule<object, Args> {
  return {
    command: "monitors [name]",
    describe: "List scheduled pipelines: next due, last check and what it found (with a name: its checks)",
    builder: (y) =>
      y
        .positional("name", { type: "string", describe: "a monitor's name (its pipeline's) or id: list its checks" })
        .option("db", DB_OPTION)
        .option("limit", { ...integerOption("limit", "how many checks", { min: 1 }), default: 20 })
        .option("json", { type: "boolean", default: false, describe: "print JSON" }) as never,
    handler: async (args) => {
      const { listMonitors, monitorChecks } = await import("../../app/monitor/index.js");
      const db = databasePath(args.db);
      if (args.name !== undefined) {
        const detail = monitorChecks(db, args.name, { limit: args.limit });
        if (args.json) io.stdout(`${JSON.stringify(detail, null, 2)}\n`);
        else {
          const m = detail.monitor;
          io.stdout(`${m.name} (${m.file ?? m.source}): ${m.schedule} ${m.timezone}, ${m.status === "removed" ? `removed ${m.removedAt}` : `next due ${m.nextDue ?? "-"}`}\n\n`);
          io.stdout(table(["check", "slot", "status", "run", "found", "notifications"], detail.checks.map((c) => [String(c.id), c.slot, c.status, c.runId === null ? "-" : String(c.runId), counts(c.summary), notes(c.notifications)]), 6));
          for (const c of detail.checks) for (const n of c.notifications.filter((x) => !x.sent)) io.stdout(`check ${c.id}: ${n.channel} ${n.target} ${n.event} failed after ${n.attempts} attempt(s): ${n.error}\n`);
        }
        setExit(EXIT.ok);
        return;
      }
      const monitors = listMonitors(db);
      if (args.json) io.stdout(`${JSON.stringify(monitors, null, 2)}\n`);
      else if (monitors.length === 0) io.stdout("no monitors yet: give a pipeline a schedule and start scrapeline watch\n");
      else {
        io.stdout(table(["name", "schedule", "next due", "last check", "status", "found", "notify"], monitors.map((m) => [m.name, `${m.schedule} ${m.timezone}`, m.status === "removed" ? "removed" : (m.nextDue ?? "-"), m.lastCheck?.startedAt ?? "-", m.lastCheck?.status ?? "-", counts(m.lastCheck?.summary ?? null), m.failedNotifications ? `${m.failedNotifications} failed` : "ok"]), 7));
      }
      setExit(EXIT.ok);
    },
  };
}

function notes(list: ReadonlyArray<{ sent: boolean }>): string {
  if (list.length === 0) return "-";
  const failed = list.filter((n) => !n.sent).length;
  return failed ? `${list.length - failed} sent, ${failed} failed` : `${list.length} sent`;
}
