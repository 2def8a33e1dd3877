#!/usr/bin/env node
/**
 * The UI program: `scrapeline ui` runs it as its own process (the CLI reaches app only, never a
 * frontend). Its one argument is the settings as JSON; the key comes from SCRAPELINE_UI_KEY in
 * its environment, never from its arguments. Stops on SIGTERM or SIGINT.
 */
import { spawn } from "node:child_process";
import { startUiServer } from "./server.js";

interface Settings {
  db: string;
  port: number;
  host: string;
  open?: boolean;
}

/** Opens the URL in the system's browser; a failure only prints a line. */
function openBrowser(url: string): void {
  const [command, args] = process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["cmd", ["/c", "start", "", url]] : ["xdg-open", [url]];
  const child = spawn(command as string, args as string[], { stdio: "ignore", detached: true });
  child.on("error", () => process.stderr.write(`could not open a browser (${command as string}); open ${url}\n`));
  child.unref();
}

async function main(): Promise<number> {
  // The settings come in SCRAPELINE_PROGRAM_SETTINGS (not an argument: they may hold a database password), kept from processes started later.
  const given = process.env.SCRAPELINE_PROGRAM_SETTINGS ?? process.argv[2] ?? "{}";
  delete process.env.SCRAPELINE_PROGRAM_SETTINGS;
  const settings = JSON.parse(given) as Settings;
  const key = process.env.SCRAPELINE_UI_KEY;
  const ui = await startUiServer({ db: settings.db, port: settings.port, host: settings.host, ...(key ? { key } : {}) });
  process.stdout.write(`scrapeline ui: ${ui.url}${key ? " (key required)" : ""}\n`);
  if (settings.open) openBrowser(ui.url);
  await new Promise<void>((resolve) => {
    const stop = () => void ui.close().then(resolve, resolve);
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    const kind = (error as { kind?: string }).kind;
    process.exit(kind === "invalid-input" ? 2 : 1);
  },
);
