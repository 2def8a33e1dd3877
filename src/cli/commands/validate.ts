import type { CommandModule } from "yargs";
import { EXIT } from "../exit-codes.js";
import { chooseFormat, printDiagnostics, summarize, type Io } from "../output.js";

interface Args {
  paths: string[];
  format?: string;
  strict: boolean;
  "allow-private-network": boolean;
}

export function validateCommand(io: Io, setExit: (code: number) => void): CommandModule<object, Args> {
  return {
    command: "validate <paths..>",
    describe: "Check pipeline files (or directories of them) and report every problem",
    builder: (y) =>
      y
        .positional("paths", { type: "string", array: true, demandOption: true, describe: "pipeline files or directories" })
        .option("format", { choices: ["long", "short", "json"], describe: "diagnostic format (default: long on a terminal, short otherwise)" })
        .option("strict", { type: "boolean", default: false, describe: "fail on warnings too (a file sure to fail here included)" })
        .option("allow-private-network", { type: "boolean", default: false, describe: "the runs will have --allow-private-network: do not warn about loopback and private addresses" })
        .example("$0 validate pipelines/", "check every pipeline in a directory")
        .example("$0 validate pipelines/prices.yaml --format json", "diagnostics as JSON, for CI annotations") as never,
    handler: async (args) => {
      const { validatePipelines } = await import("../../app/check/index.js");
      const format = chooseFormat(args.format, io);
      const report = await validatePipelines(args.paths, { strict: args.strict, allowPrivateNetwork: args["allow-private-network"] });
      printDiagnostics(io, report.diagnostics, format, report.sources);
      const files = report.files.length;
      const line = `${report.valid ? "ok" : "invalid"}: ${files} file${files === 1 ? "" : "s"} checked, ${summarize(report.diagnostics)}\n`;
      if (format === "long") io.stdout(`${report.diagnostics.length ? "\n" : ""}${line}`);
      else io.stderr(line);
      setExit(report.valid ? EXIT.ok : EXIT.invalid);
    },
  };
}
