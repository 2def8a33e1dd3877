import type { CommandModule } from "yargs";
import { EXIT } from "../exit-codes.js";
import type { Io } from "../output.js";

interface Args {
  print: boolean;
}

export function schemaCommand(io: Io, setExit: (code: number) => void): CommandModule<object, Args> {
  return {
    command: "schema",
    describe: "Print the path of the bundled pipeline JSON Schema (or its contents), for editor setup",
    builder: (y) =>
      y
        .option("print", { type: "boolean", default: false, describe: "print the schema itself instead of its path" })
        .example("$0 schema", "path to put in # yaml-language-server: $schema=...") as never,
    handler: async (args) => {
      const { schemaInfo } = await import("../../app/check/index.js");
      const { path, text } = await schemaInfo();
      io.stdout(args.print ? text : `${path}\n`);
      setExit(EXIT.ok);
    },
  };
}
