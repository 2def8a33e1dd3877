import type { CommandModule } from "yargs";
import { databasePath } from "../../app/light.js";
import { EXIT } from "../exit-codes.js";
import type { Interrupts } from "../interrupts.js";
import { DB_OPTION, integerOption } from "../options.js";
import type { Io } from "../output.js";

interface Args {
  paths: string[];
  db?: string;
  "max-parallel": number;
  once: boolean;
  "allow-private-network": boolean;
}

export function watchCommand(io: Io, setExit: (code: number) => void, signals: Interrupts): CommandModule<object, Args> {
  return {
    command: "watch [paths..]",
    describe: "Run scheduled pipelines when they are due, until stopped (or once, with --once)",
    builder: (y) =>
      y
        .positional("paths", { type: "string", array: true, default: ["pipelines"], describe: "pipeline files or directories (their *.yaml files)" })
        .option("db", DB_OPTION)
        .option("max-parallel", { ...integerOption("max-parallel", "checks running at once", { min: 1, max: 1000 }), default: 2 })
        .option("once", { type: "boolean", default: false, describe: "run what is due now (and finish interrupted checks), then exit: for system cron or timers" })
        .option("allow-private-network", { type: "boolean", default: false, describe: "let requests and notifications reach loopback and private addresses" })
        .example("$0 watch pipelines/", "run every scheduled pipeline in pipelines/ when due")
        .example("$0 watch pipelines/ --once", "from a crontab line or a systemd timer") as never,
    handler: async (args) => {
      const { watch } = await import("../../app/monitor/index.js");
      signals.onStop(() => io.stderr("stopping: no new checks; waiting for pages in flight (Ctrl-C again to abort them)\n"));
      io.onClosed?.(() => signals.requestStop());
      const summary = await watch({
        paths: args.paths,
        db: databasePath(args.db),
        maxParallel: args["max-parallel"],
        once: args.once,
        allowPrivateNetwork: args["allow-private-network"],
        stop: signals.stop,
        abort: signals.abort,
        log: (line) => io.stdout(`${line}\n`),
      });
      // A stop is how a watch ends: checks it cut short are resumed at the next start.
      if (summary.failed > 0) setExit(EXIT.stepFailed);
      else if (summary.invalidFiles > 0) setExit(EXIT.invalid);
      else setExit(EXIT.ok);
    },
  };
}
