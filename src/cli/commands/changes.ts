import type { CommandModule } from "yargs";
import { databasePath } from "../../app/light.js";
import { EXIT } from "../exit-codes.js";
import { DB_OPTION, integerOption } from "../options.js";
import type { Io } from "../output.js";
import { table } from "../table.js";

const TAG_OPTION = { type: "string", describe: "the tag the pages were tracked with (default: untagged)" } as const;

/** A unified diff with added lines green, removed lines red and hunk headers cyan. */
export function colorDiff(text: string, color: boolean): string {
  if (!color) return text;
  return text
    .split("\n")
    .map((line) =>
      line.startsWith("+++") || line.startsWith("---") ? `\u001b[1m${line}\u001b[0m` : line.startsWith("+") ? `\u001b[32m${line}\u001b[0m` : line.startsWith("-") ? `\u001b[31m${line}\u001b[0m` : line.startsWith("@@") ? `\u001b[36m${line}\u001b[0m` : line,
    )
    .join("\n");
}

export function changesCommand(io: Io, setExit: (code: number) => void): CommandModule<object, { run: string; db?: string; json: boolean; exitCode: boolean; diff: boolean }> {
  return {
    command: "changes",
    describe: "List the pages of a run that are new, changed, removed or hidden, with their diffs",
    builder: (y) =>
      y
        .option("run", { type: "string", default: "latest", describe: "run id or latest" })
        .option("db", DB_OPTION)
        .option("json", { type: "boolean", default: false, describe: "print JSON" })
        .option("diff", { type: "boolean", default: true, describe: "show the diff of each changed page (--no-diff for the list only)" })
        .option("exit-code", { type: "boolean", default: false, describe: "exit 1 when anything changed (like git diff --exit-code), for cron and CI" })
        .example("$0 changes --exit-code || notify-team", "act only when something changed") as never,
    handler: async (args) => {
      const { runChanges } = await import("../../app/export/index.js");
      const report = runChanges(databasePath(args.db), args.run);
      if (args.json) {
        io.stdout(`${JSON.stringify(report, null, 2)}\n`);
      } else if (report.tracked === 0 && report.searches.length === 0) {
        io.stderr(`run ${report.runId} tracked no changes: add {type: changeTracking} to a step's formats\n`);
      } else {
        const c = report.counts;
        if (report.tracked > 0) io.stdout(`run ${report.runId}: ${report.tracked} tracked page(s): ${c.changed} changed, ${c.new} new, ${c.removed} removed, ${c.hidden} hidden, ${c.same} same\n`);
        for (const page of report.pages) {
          const status = page.visibility === "hidden" ? `${page.changeStatus}, hidden` : page.changeStatus;
          io.stdout(`\n${status.padEnd(8)} ${page.url} [${page.stepId}]${page.previousScrapeAt ? ` (previous ${page.previousScrapeAt})` : ""}\n`);
          if (args.diff && page.diff) io.stdout(`${colorDiff(page.diff.trimEnd(), io.color)}\n`);
        }
        const { searchChangeSummary } = await import("../search-lines.js");
        for (const search of report.searches) io.stdout(searchChangeSummary(report.runId, search));
      }
      const searchMoved = report.searches.some((s) => s.previousRunId !== null && s.added.length + s.removed.length > 0);
      setExit(args.exitCode && (report.pages.length > 0 || searchMoved) ? EXIT.stepFailed : EXIT.ok);
    },
  };
}

export function historyCommand(io: Io, setExit: (code: number) => void): CommandModule<object, { url: string; tag?: string; db?: string; json: boolean }> {
  return {
    command: "history <url>",
    describe: "List the stored versions of a page, oldest first",
    builder: (y) =>
      y
        .positional("url", { type: "string", demandOption: true, describe: "the page's URL, as the pipeline requested it" })
        .option("tag", TAG_OPTION)
        .option("db", DB_OPTION)
        .option("json", { type: "boolean", default: false, describe: "print JSON" }) as never,
    handler: async (args) => {
      const { pageHistory } = await import("../../app/export/index.js");
      const versions = pageHistory(databasePath(args.db), args.url, args.tag ?? null);
      if (args.json) io.stdout(`${JSON.stringify(versions, null, 2)}\n`);
      else io.stdout(table(["version", "status", "first seen", "run", "last seen", "run", "fingerprint"], versions.map((v) => [String(v.version), String(v.statusCode ?? "-"), v.firstSeenAt, String(v.firstRunId ?? "-"), v.lastSeenAt, String(v.lastRunId ?? "-"), v.fingerprint.slice(0, 12)]), 2));
      setExit(EXIT.ok);
    },
  };
}

export function diffCommand(io: Io, setExit: (code: number) => void): CommandModule<object, { url: string; tag?: string; from?: number; to?: number; db?: string; json: boolean }> {
  return {
    command: "diff <url>",
    describe: "Show the diff between two stored versions of a page (default: the last two)",
    builder: (y) =>
      y
        .positional("url", { type: "string", demandOption: true, describe: "the page's URL" })
        .option("tag", TAG_OPTION)
        .option("from", integerOption("from", "the version current in this run (a run id; default: the version before --to)", { min: 1 }))
        .option("to", integerOption("to", "the version current in this run (a run id; default: the latest)", { min: 1 }))
        .option("db", DB_OPTION)
        .option("json", { type: "boolean", default: false, describe: "print JSON" }) as never,
    handler: async (args) => {
      const { pageDiff } = await import("../../app/export/index.js");
      const diff = pageDiff(databasePath(args.db), args.url, { tag: args.tag ?? null, ...(args.from !== undefined ? { from: args.from } : {}), ...(args.to !== undefined ? { to: args.to } : {}) });
      if (args.json) io.stdout(`${JSON.stringify(diff, null, 2)}\n`);
      else if (diff.text === "") io.stderr(`${args.url}: version ${diff.from.version} and version ${diff.to.version} are the same\n`);
      else io.stdout(`${colorDiff(diff.text.trimEnd(), io.color)}\n`);
      setExit(EXIT.ok);
    },
  };
}
