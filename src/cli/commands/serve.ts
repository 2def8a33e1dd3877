import type { CommandModule } from "yargs";
import { databasePath } from "../../app/index.js";
import { startServer } from "../../server/index.js";
import { EXIT } from "../exit-codes.js";
import { DB_OPTION } from "../options.js";
import type { Io } from "../output.js";

interface ServeArgs {
  port: number;
  host: string;
  db?: string;
  "allow-private-network": boolean;
  "risk-list"?: string;
  concurrency?: number;
}

/** `scrapeline serve`: runs until SIGTERM or SIGINT, then shuts down gracefully. */
export function serveCommand(io: Io, setExit: (code: number) => void): CommandModule<object, ServeArgs> {
  return {
    command: "serve",
    describe: "Serve the local engine over HTTP, speaking the service's API (keys: scrapeline keys)",
    builder: (y) =>
      y
        .option("port", { type: "number", default: 3002, describe: "port to listen on (0: any free port)" })
        .option("host", { type: "string", default: "127.0.0.1", describe: "address to listen on" })
        .option("db", DB_OPTION)
        .option("allow-private-network", { type: "boolean", default: false, describe: "let requests fetch loopback and private addresses (off: the SSRF guard)" })
        .option("risk-list", { type: "string", requiresArg: true, describe: "web-risk list for threat protection's mode normal: lines of `domain score`" })
        .option("concurrency", { type: "number", describe: "pages in flight per job (default 8)" }) as never,
    handler: async (args) => {
      const server = await startServer({
        port: args.port,
        host: args.host,
        db: databasePath(args.db),
        allowPrivateNetwork: args["allow-private-network"],
        ...(args["risk-list"] ? { riskList: args["risk-list"] } : {}),
        ...(args.concurrency ? { concurrency: args.concurrency } : {}),
      });
      io.stderr(`scrapeline serve listening on ${server.url}${args["allow-private-network"] ? " (private network allowed)" : ""}\n`);
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          io.stderr(`${signal}: stopping; requests and pages in flight finish, running jobs end cancelled\n`);
          process.off("SIGTERM", onTerm);
          process.off("SIGINT", onInt);
          void server.close().then(resolve, resolve);
        };
        const onTerm = () => stop("SIGTERM");
        const onInt = () => stop("SIGINT");
        process.on("SIGTERM", onTerm);
        process.on("SIGINT", onInt);
      });
      io.stderr("scrapeline serve stopped\n");
      setExit(EXIT.ok);
    },
  };
}
