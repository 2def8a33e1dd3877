import type { CommandModule } from "yargs";
import { EXIT } from "../exit-codes.js";
import { VAR_OPTION, varsOf } from "../options.js";
import { chooseFormat, printDiagnostics, type Io } from "../output.js";

interface Args {
  file: string;
  format: string;
  var: string[];
  "allow-private-network": boolean;
}

export function planCommand(io: Io, setExit: (code: number) => void): CommandModule<object, Args> {
  return {
    command: "plan <file>",
    describe: "Show the normalized pipeline: steps in run order with their resolved bodies",
    builder: (y) =>
      y
        .positional("file", { type: "string", demandOption: true, describe: "pipeline file" })
        .option("format", { choices: ["yaml", "json"], default: "yaml", describe: "output format" })
        .option("var", VAR_OPTION)
        .option("allow-private-network", { type: "boolean", default: false, describe: "the run will have --allow-private-network: do not warn about loopback and private addresses" })
        .example("$0 plan pipelines/prices.yaml", "what would run, with every default filled in") as never,
    handler: async (args) => {
      const { planFile } = await import("../../app/check/index.js");
      const { stringify } = await import("yaml");
      const report = await planFile(args.file, { vars: varsOf(args.var), allowPrivateNetwork: args["allow-private-network"] });
      printDiagnostics(io, report.diagnostics, chooseFormat(undefined, { ...io, isTTY: io.color || io.isTTY }), report.sources, io.stderr);
      if (!report.plan) {
        setExit(EXIT.invalid);
        return;
      }
      if (args.format === "json") io.stdout(`${JSON.stringify(report.plan, null, 2)}\n`);
      else {
        const { credits, exact } = report.plan.estimate;
        io.stdout(`# plan of ${report.plan.file}: ${report.plan.steps.length} steps in ${report.plan.stages} stages, ${exact ? "" : "up to about "}${credits} credits${exact ? "" : " (some counts are known only at run time)"}\n${stringify(report.plan, { lineWidth: 0 })}`);
      }
      setExit(EXIT.ok);
    },
  };
}
