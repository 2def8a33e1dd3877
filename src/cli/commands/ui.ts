import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { CommandModule } from "yargs";
import { databasePath } from "../../app/light.js";
import { EXIT } from "../exit-codes.js";
import { UI_PROGRAM } from "../programs.js";
import { DB_OPTION, integerOption } from "../options.js";
import type { Io } from "../output.js";

interface UiArgs {
  port: number;
  host: string;
  db?: string;
  open: boolean;
}


/** `scrapeline ui`: the runs, changes and page histories of a database as web pages, until SIGTERM or SIGINT. */
export function uiCommand(io: Io, setExit: (code: number) => void): CommandModule<object, UiArgs> {
  return {
    command: "ui",
    describe: "Browse runs, documents, changes and page histories in a web browser (read-only)",
    builder: (y) =>
      y
        .option("db", DB_OPTION)
        .option("port", { ...integerOption("port", "port to listen on (0: any free port)", { min: 0, max: 65535 }), default: 7777 })
        .option("host", { type: "string", default: "127.0.0.1", describe: "address to listen on; beyond loopback it needs SCRAPELINE_UI_KEY" })
        .option("open", { type: "boolean", default: false, describe: "open the page in the system's browser" }) as never,
    handler: async (args) => {
      const settings = { db: databasePath(args.db), port: args.port, host: args.host, open: args.open };
      const child = spawn(process.execPath, [UI_PROGRAM, JSON.stringify(settings)], { stdio: "inherit" });
      const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
      const onTerm = forward("SIGTERM");
      const onInt = forward("SIGINT");
      process.on("SIGTERM", onTerm);
      process.on("SIGINT", onInt);
      const code = await new Promise<number>((resolve) => {
        child.once("error", (error) => {
          io.stderr(`error: cannot start the UI: ${error.message}\n`);
          resolve(EXIT.stepFailed);
        });
        child.once("exit", (status, signal) => resolve(status ?? (signal ? 128 + (constants.signals[signal] ?? 15) : EXIT.stepFailed)));
      });
      process.off("SIGTERM", onTerm);
      process.off("SIGINT", onInt);
      setExit(code === 0 ? EXIT.ok : code);
    },
  };
}
