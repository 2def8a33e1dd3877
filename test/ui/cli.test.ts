import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/index.js";
import { cliChild, finish, workdir } from "../run/helpers.js";
import { startUiCli } from "./browser.js";

/** `scrapeline ui` as a user starts it (the built CLI): where it listens, who it answers, how it stops. */
function emptyDatabase(): string {
  const db = join(workdir(), "empty.db");
  new SqliteStore(db).close();
  return db;
}

/** A GET with a chosen Host header (fetch does not allow setting it). */
function getWithHost(url: string, host: string, authorization?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host, ...(authorization ? { authorization } : {}) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("scrapeline ui", () => {
  it("refuses to bind beyond loopback without a key, saying how to give one", async () => {
    const result = await finish(cliChild(["ui", "--db", emptyDatabase(), "--host", "0.0.0.0", "--port", "0"]));
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/SCRAPELINE_UI_KEY/);
    expect(result.out).not.toContain("scrapeline ui: http");
  });

  it("says when its port is taken", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const result = await finish(cliChild(["ui", "--db", emptyDatabase(), "--port", String(port)]));
      expect(result.code).toBe(2);
      expect(result.err).toContain(`port ${port} on 127.0.0.1 is in use; choose another with --port`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("reports a database that does not exist instead of creating it", async () => {
    const missing = join(workdir(), "nope", "missing.db");
    const result = await finish(cliChild(["ui", "--db", missing, "--port", "0"]));
    expect(result.code).toBe(2);
    expect(result.err).toContain(`no database at ${missing}`);
  });

  it("answers only requests for localhost without a key (no DNS rebinding), and stops on SIGTERM", async () => {
    const ui = await startUiCli(emptyDatabase());
    expect(await getWithHost(`${ui.url}/`, new URL(ui.url).host)).toBe(200);
    expect(await getWithHost(`${ui.url}/`, `localhost:${new URL(ui.url).port}`)).toBe(200);
    expect(await getWithHost(`${ui.url}/`, "attacker.example")).toBe(421);
    const page = await fetch(`${ui.url}/`).then((r) => r.text());
    expect(page).toContain("No runs yet.");
    ui.child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => ui.child.once("exit", resolve));
    expect(code).toBe(0);
  });

  it("with SCRAPELINE_UI_KEY asks for the key on every request and never prints it", async () => {
    const key = "ui-secret-key-123";
    const ui = await startUiCli(emptyDatabase(), [], { ...process.env, SCRAPELINE_UI_KEY: key });
    try {
      const none = await fetch(`${ui.url}/`);
      expect(none.status).toBe(401);
      expect(none.headers.get("www-authenticate")).toMatch(/^Basic/);
      expect((await fetch(`${ui.url}/`, { headers: { authorization: `Basic ${Buffer.from("x:wrong").toString("base64")}` } })).status).toBe(401);
      expect((await fetch(`${ui.url}/`, { headers: { authorization: `Basic ${Buffer.from(`x:${key}`).toString("base64")}` } })).status).toBe(200);
      expect((await fetch(`${ui.url}/assets/ui.css`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      expect(ui.output()).toContain("(key required)");
      expect(ui.output()).not.toContain(key);
    } finally {
      await ui.stop();
    }
  });

  it.skipIf(process.platform !== "linux")("with --open hands its URL to the system's opener (xdg-open)", async () => {
    const dir = workdir();
    const opened = join(dir, "opened");
    writeFileSync(join(dir, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > "${opened}"\n`);
    chmodSync(join(dir, "xdg-open"), 0o755);
    const ui = await startUiCli(emptyDatabase(), ["--open"], { ...process.env, PATH: `${dir}:${process.env.PATH ?? ""}` });
    try {
      // However long the machine takes to run the opener: a hang is the test timeout's to catch.
      while (!existsSync(opened) || readFileSync(opened, "utf8") === "") await new Promise((r) => setTimeout(r, 25));
      expect(readFileSync(opened, "utf8")).toBe(`${ui.url}/`);
    } finally {
      await ui.stop();
    }
  });

  it("is listed in the help", async () => {
    const result = await finish(cliChild(["--help"]));
    expect(result.out).toMatch(/scrapeline ui\s+Browse runs/);
  });
});
