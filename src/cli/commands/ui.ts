import type { CommandModule } from "yargs";
import { databasePath } from "../../app/light.js";
import { EXIT } from "../exit-codes.js";
import { UI_PROGRAM, runProgram } from "../programs.js";
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
      const code = await runProgram(UI_PROGRAM, settings, io, "the UI");
      setExit(code === 0 ? EXIT.ok : code);
    },
  };
}
