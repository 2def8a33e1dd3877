import type { CommandModule } from "yargs";
import { EXIT } from "../exit-codes.js";
import type { Io } from "../output.js";
import { table } from "../table.js";

interface Args {
  url: string;
  prompt: string;
  json: boolean;
  engine: "local" | "firecrawl";
}

export function crawlPreviewCommand(io: Io, setExit: (code: number) => void): CommandModule<object, Args> {
  return {
    command: "crawl-preview <url> <prompt>",
    describe: "Show the crawl options a natural-language prompt derives, before a crawl uses it",
    builder: (y) =>
      y
        .positional("url", { type: "string", demandOption: true, describe: "the crawl's start URL" })
        .positional("prompt", { type: "string", demandOption: true, describe: "what to crawl, in plain words" })
        .option("json", { type: "boolean", default: false, describe: "print the options as JSON (the params-preview data)" })
        .option("engine", { choices: ["local", "firecrawl"] as const, default: "local" as const, describe: "local: scrapeline's phrase reader; firecrawl: the service's POST /v2/crawl/params-preview" })
        .example('$0 crawl-preview https://example.com "only blog posts, at most 50 pages"', "includePaths and limit") as never,
    handler: async (args) => {
      const { previewCrawlParamsLocally } = await import("../../app/check/index.js");
      const { previewCrawlRemote } = await import("../../app/run/index.js");
      if (args.engine === "firecrawl") {
        const data = await previewCrawlRemote(args.url, args.prompt, { apiKeyEnv: "FIRECRAWL_API_KEY" }, process.env);
        io.stdout(`${JSON.stringify({ success: true, data }, null, 2)}\n`);
        setExit(EXIT.ok);
        return;
      }
      const preview = await previewCrawlParamsLocally(args.url, args.prompt, process.env);
      const { url, ...options } = preview.data;
      if (args.json) {
        io.stdout(`${JSON.stringify({ success: true, data: preview.data }, null, 2)}\n`);
      } else if (Object.keys(options).length === 0) {
        io.stderr(`no crawl option was recognised in the prompt; a crawl of ${url} would use its explicit options and the defaults\n`);
      } else {
        const phrases = new Map(preview.matched.map((m) => [m.option, m.phrase]));
        const rows = Object.entries(options).map(([key, value]) => [key, JSON.stringify(value), phrases.has(key) ? `"${phrases.get(key)}"` : preview.source === "model" ? "(the model)" : ""]);
        io.stdout(`crawl of ${url}\n${table(["option", "value", "from"], rows, 3)}\n`);
      }
      setExit(EXIT.ok);
    },
  };
}
