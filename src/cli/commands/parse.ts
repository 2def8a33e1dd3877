import type { CommandModule } from "yargs";
import { EXIT } from "../exit-codes.js";
import type { Io } from "../output.js";

interface Args {
  files: string[];
  format: "markdown" | "json";
  out?: string;
  engine: "local" | "firecrawl";
}

export function parseCommand(io: Io, setExit: (code: number) => void): CommandModule<object, Args> {
  return {
    command: "parse <files..>",
    describe: "Convert documents (PDF, DOCX, ODT, RTF, EPUB, PPTX, ODP, XLSX, XLS, ODS, CSV, HTML) to markdown or JSON",
    builder: (y) =>
      y
        .positional("files", { type: "string", array: true, demandOption: true, describe: "document files (the format is read from the content)" })
        .option("format", { choices: ["markdown", "json"], default: "markdown", describe: "markdown text, or the whole document (metadata, links) as JSON" })
        .option("out", { type: "string", describe: "write NAME.md / NAME.json per file into this directory instead of printing" })
        .option("engine", { choices: ["local", "firecrawl"] as const, default: "local" as const, describe: "convert here, or upload each file to the service (FIRECRAWL_API_URL, FIRECRAWL_API_KEY; billed by it)" })
        .example("$0 parse report.docx", "print the markdown of a document")
        .example("$0 parse docs/*.xlsx --format json --out parsed/", "one JSON document per file") as never,
    handler: async (args) => {
      const { parseFiles } = await import("../../app/run/index.js");
      const results = await parseFiles(args.files, { format: args.format, engine: args.engine, ...(args.out !== undefined ? { out: args.out } : {}) });
      const documents = [];
      let failed = 0;
      for (const result of results) {
        if ("error" in result) {
          failed++;
          io.stderr(`error: ${result.error}\n`);
        } else if (result.written) io.stderr(`${result.file} → ${result.written}\n`);
        else documents.push(result);
      }
      if (args.format === "json" && documents.length > 0) {
        io.stdout(`${JSON.stringify(args.files.length === 1 ? documents[0]!.document : documents.map((d) => d.document), null, 2)}\n`);
      } else {
        for (const [i, { file, document }] of documents.entries()) {
          if (documents.length > 1) io.stdout(`${i > 0 ? "\n" : ""}<!-- ${file} -->\n\n`);
          const markdown = document.markdown ?? "";
          io.stdout(markdown.endsWith("\n") || markdown === "" ? markdown : `${markdown}\n`);
        }
      }
      setExit(failed > 0 ? EXIT.stepFailed : EXIT.ok);
    },
  };
}
