import type { CommandModule } from "yargs";
import { databasePath } from "../../app/light.js";
import { EXIT } from "../exit-codes.js";
import type { Interrupts } from "../interrupts.js";
import { DB_OPTION, integerOption } from "../options.js";
import type { Io } from "../output.js";

interface Args {
  db?: string;
  concurrency?: number;
  "lease-seconds": number;
  "allow-private-network": boolean;
}

/** `scrapeline worker`: takes pages of serve's running crawls and batch scrapes from the frontier shared in PostgreSQL, until stopped. */
export function workerCommand(io: Io, setExit: (code: number) => void, signals: Interrupts): CommandModule<object, Args> {
  return {
    command: "worker",
    describe: "Work on the running crawls and batch scrapes of scrapeline serve's replicas sharing a PostgreSQL --db, until stopped",
    builder: (y) =>
      y
        .option("db", { ...DB_OPTION, describe: "the postgres:// URL serve's replicas use (default: $SCRAPELINE_DATABASE_URL)" })
        .option("concurrency", integerOption("concurrency", "pages in flight per crawl or batch in this process (default: the job's own)", { min: 1 }))
        .option("lease-seconds", { ...integerOption("lease-seconds", "how long this process's claimed pages stay its own unless it renews them: after a crash, others take them over after this", { min: 1, max: 3600 }), default: 30 })
        .option("allow-private-network", { type: "boolean", default: false, describe: "let requests fetch loopback and private addresses (off: the SSRF guard)" })
        .example("$0 worker --db postgres://scrapeline@db/scrapeline", "help serve's replicas with their crawls and batch scrapes")
        .epilog("Jobs sent with header values are taken only when SCRAPELINE_SECRET_KEY is the one the serve replica that accepted them has (their values are kept encrypted under it).") as never,
    handler: async (args) => {
      const { runWorker } = await import("../../app/worker/index.js");
      signals.onStop(() => io.stderr("stopping: no new pages; pages in flight finish and are stored, the others go back to the queue\n"));
      io.onClosed?.(() => signals.requestStop());
      await runWorker(
        {
          db: databasePath(args.db),
          ...(args.concurrency ? { concurrency: args.concurrency } : {}),
          leaseMs: args["lease-seconds"] * 1000,
          allowPrivateNetwork: args["allow-private-network"],
          onEvent: (event) => {
            if (event.type === "ready") io.stderr(`scrapeline worker started (pid ${process.pid})\n`);
            else if (event.type === "joined") io.stderr(`joined ${event.kind} ${event.jobId} (run ${event.runId})\n`);
            else if (event.type === "left") io.stderr(`left ${event.kind} ${event.jobId}: ${event.stored} page(s) stored here, ${event.failed} failed\n`);
            else if (event.type === "finished-for-leader") {
              const webhook = event.webhookLeft ? "; its webhook is told by the next live replica" : "";
              io.stderr(`finished ${event.kind} ${event.jobId} for its replica, which is gone: ${event.pages} page(s), ${event.failed} failed${webhook}\n`);
            } else if (event.type === "skipped") io.stderr(`left ${event.kind} ${event.jobId} to other processes: ${event.why}\n`);
            else io.stderr(`job ${event.jobId}: ${event.message}\n`);
          },
        },
        signals.stop,
      );
      io.stderr("scrapeline worker stopped\n");
      setExit(EXIT.ok);
    },
  };
}
