#!/usr/bin/env node
/**
 * The server program: `scrapeline serve` runs it as its own process (the CLI and the server are
 * two frontends over app/, and neither imports the other). Its settings come as JSON in
 * SCRAPELINE_PROGRAM_SETTINGS. It stops gracefully on the first SIGTERM or SIGINT; later ones are ignored while it does.
 */
import { startServer, type ServerOptions } from "./index.js";

async function main(): Promise<number> {
  // The settings come in SCRAPELINE_PROGRAM_SETTINGS (not an argument: they may hold a database password), kept from processes started later.
  const given = process.env.SCRAPELINE_PROGRAM_SETTINGS ?? process.argv[2] ?? "{}";
  delete process.env.SCRAPELINE_PROGRAM_SETTINGS;
  const options = JSON.parse(given) as ServerOptions;
  const server = await startServer(options);
  process.stderr.write(`scrapeline serve listening on ${server.url} (pid ${process.pid})${options.allowPrivateNetwork ? " (private network allowed)" : ""}${options.allowCodeExecution ? " (code execution allowed)" : ""}\n`);
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`${signal}: stopping; requests and pages in flight finish, running jobs end cancelled\n`);
      void server.close().then(resolve, resolve);
    };
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
  });
  process.stderr.write("scrapeline serve stopped\n");
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
    // Listeners stay installed so a late signal cannot cut the exit short; leave explicitly.
    process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`scrapeline serve: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
