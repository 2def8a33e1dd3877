import type { CommandModule } from "yargs";
import { databasePath } from "../../app/light.js";
import { EXIT } from "../exit-codes.js";
import { SERVER_PROGRAM, runProgram } from "../programs.js";
import { DB_OPTION, integerOption, UsageError } from "../options.js";
import type { Io } from "../output.js";

interface ServeArgs {
  port: number;
  host: string;
  db?: string;
  "allow-private-network": boolean;
  "risk-list"?: string;
  concurrency?: number;
  "per-host-concurrency"?: number;
  "public-url"?: string;
  "max-connections-per-client"?: number;
  "allow-code-execution": boolean;
  "max-browser-sessions"?: number;
  "code-memory-mb"?: number;
}

/** The heap a code run may have, in MB: enough for Node to start, and no more than a machine can spare for one run. */
const CODE_MEMORY_MB = { min: 32, max: 4096 };


/** `scrapeline serve`: runs the server until SIGTERM or SIGINT, which it passes on for a graceful stop. */
export function serveCommand(io: Io, setExit: (code: number) => void): CommandModule<object, ServeArgs> {
  return {
    command: "serve",
    describe: "Serve the local engine over HTTP, speaking the service's API (keys: scrapeline keys)",
    builder: (y) =>
      y
        .option("port", { ...integerOption("port", "port to listen on (0: any free port)", { min: 0, max: 65535 }), default: 3002 })
        .option("host", { type: "string", default: "127.0.0.1", describe: "address to listen on" })
        .option("db", DB_OPTION)
        .option("allow-private-network", { type: "boolean", default: false, describe: "let requests fetch loopback and private addresses (off: the SSRF guard)" })
        .option("risk-list", { type: "string", requiresArg: true, describe: "web-risk list for threat protection's mode normal: lines of `domain score`" })
        .option("concurrency", integerOption("concurrency", "pages in flight per job (default 8)", { min: 1 }))
        .option("per-host-concurrency", integerOption("per-host-concurrency", "pages of one host in flight per job, across replicas and workers on PostgreSQL (default: --concurrency, at most 4)", { min: 1 }))
        .option("public-url", { type: "string", requiresArg: true, describe: "the URL clients reach the server at (behind a proxy): the base of links in answers; default the listening address" })
        .option("max-connections-per-client", integerOption("max-connections-per-client", "open connections one client address may hold (default 64; behind a reverse proxy the proxy is one client)", { min: 1 }))
        .option("allow-code-execution", { type: "boolean", default: false, describe: "run JavaScript sent to /v2/browser/{id}/execute and /v2/scrape/{id}/interact (remote code execution by design: each run in its own limited process)" })
        .option("max-browser-sessions", integerOption("max-browser-sessions", "live browser sessions per team (default 5)", { min: 1 }))
        .option("code-memory-mb", integerOption("code-memory-mb", `heap limit of each code run's process, in MB (${CODE_MEMORY_MB.min}–${CODE_MEMORY_MB.max}, default 128; with --allow-code-execution)`, CODE_MEMORY_MB))
        .check((argv) => {
          // A limit on code runs that are off says the operator expects them on: refused, not ignored.
          if (argv["code-memory-mb"] !== undefined && argv["allow-code-execution"] !== true) {
            throw new UsageError("--code-memory-mb limits code runs, which are off without --allow-code-execution: add --allow-code-execution, or drop --code-memory-mb");
          }
          return true;
        }) as never,
    handler: async (args) => {
      const settings = {
        port: args.port,
        host: args.host,
        db: databasePath(args.db),
        allowPrivateNetwork: args["allow-private-network"],
        ...(args["risk-list"] ? { riskList: args["risk-list"] } : {}),
        ...(args.concurrency ? { concurrency: args.concurrency } : {}),
        ...(args["per-host-concurrency"] ? { perHostConcurrency: args["per-host-concurrency"] } : {}),
        ...(args["public-url"] ? { publicUrl: args["public-url"] } : {}),
        ...(args["max-connections-per-client"] ? { maxConnectionsPerClient: args["max-connections-per-client"] } : {}),
        ...(args["allow-code-execution"] ? { allowCodeExecution: true } : {}),
        ...(args["max-browser-sessions"] ? { maxBrowserSessions: args["max-browser-sessions"] } : {}),
        ...(args["code-memory-mb"] ? { codeMemoryMb: args["code-memory-mb"] } : {}),
      };
      const code = await runProgram(SERVER_PROGRAM, settings, io, "the server");
      setExit(code === 0 ? EXIT.ok : code);
    },
  };
}
