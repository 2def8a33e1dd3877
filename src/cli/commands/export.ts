import type { CommandModule } from "yargs";
import { databasePath } from "../../app/light.js";
import type { ExportFormat } from "../../app/export/index.js";
import { EXIT } from "../exit-codes.js";
import { DB_OPTION } from "../options.js";
import type { Io } from "../output.js";

interface Args {
  db?: string;
  run: string;
  step?: string;
  format: ExportFormat;
  assets: "inline" | "refs";
  out?: string;
}

export function exportCommand(io: Io, setExit: (code: number) => void): CommandModule<object, Args> {
  return {
    command: "export",
    describe: "Write a run's stored documents as JSON, JSONL, CSV or markdown files",
    builder: (y) =>
      y
        .option("db", DB_OPTION)
        .option("run", { type: "string", default: "latest", describe: "run id or latest" })
        .option("step", { type: "string", describe: "only this step's documents" })
        .option("format", { choices: ["json", "jsonl", "csv", "markdown", "tree"], demandOption: true, describe: "output format" })
        .option("out", { type: "string", describe: "output file (a directory for markdown and tree); stdout when absent" })
        .option("assets", { choices: ["inline", "refs"] as const, default: "inline" as const, describe: "json/jsonl: screenshots and PDFs as data: URLs, or as references into the database (markdown writes them as files)" })
        .example("$0 export --format jsonl > pages.jsonl", "the latest run, one Document per line")
        .example("$0 export --run 12 --format markdown --out pages/", "one .md file per page with front matter") as never,
    handler: async (args) => {
      const { exportRun } = await import("../../app/export/index.js");
      const { runId, count } = await exportRun({ db: databasePath(args.db), run: args.run, ...(args.step ? { step: args.step } : {}), format: args.format, assets: args.assets, ...(args.out ? { out: args.out } : {}), write: io.stdout });
      // A reader that stopped early (`| head`) got what it wanted: no count, no error, exit 0.
      await io.flush?.();
      if (!args.out && io.stdoutClosed?.()) return setExit(EXIT.ok);
      io.stderr(`exported ${count} document(s) of run ${runId}${args.out ? ` to ${args.out}` : ""}\n`);
      setExit(EXIT.ok);
    },
  };
}
