import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { startServe, type Serve } from "./helpers.js";

let serve: Serve;
let guarded: Serve;
let id = "";
const site = new FixtureSite();

beforeAll(async () => {
  site.page("/", htmlPage("Inside", "<p>private page</p>"));
  await site.start();
  serve = await startServe({ alpha: {} }, { allowCodeExecution: true, codeMemoryMb: 48 });
  // No private network: the session's page meets the same SSRF gate as scrapes.
  guarded = await startServe({ alpha: {} }, { allowCodeExecution: true, allowPrivateNetwork: false });
  id = (await serve.call("POST", "/v2/browser", { body: {} })).body.id;
});

afterAll(async () => {
  await Promise.all([serve.stop(), guarded.stop(), site.stop()]);
});

const execute = (code: string, timeout = 5) => serve.call("POST", `/v2/browser/${id}/execute`, { body: { code, timeout } });

describe("code execution limits", () => {
  it("kills a busy infinite loop at its timeout", async () => {
    const ran = await execute("while (true) {}", 2);
    expect(ran.status).toBe(200);
    expect(ran.body).toMatchObject({ killed: true, result: null });
    expect(ran.body.exitCode).not.toBe(0);
    expect(ran.body.stderr).toMatch(/timed out|timeout/);
  });

  it("kills code that never finishes (an await that never settles) at its timeout", async () => {
    const ran = await execute("console.log('waiting'); await new Promise(() => {});", 2);
    expect(ran.body).toMatchObject({ killed: true, exitCode: 137, stdout: "waiting\n" });
    expect(ran.body.stderr).toMatch(/past its timeout of 2 s/);
  });

  it("ends code that allocates past its memory limit, and the session goes on", async () => {
    const ran = await execute("const keep = []; for (;;) keep.push(new Array(1e6).fill(7));", 30);
    expect(ran.body.killed).toBe(false);
    expect(ran.body.exitCode).not.toBe(0);
    expect(ran.body.stderr).toMatch(/memory/i);
    expect((await execute("return 6 * 7")).body.result).toBe(42);
  });

  it("has no require, import, process, environment, fetch or way back to the host's Function", async () => {
    const required = await execute("const fs = require('fs'); return fs.readdirSync('/')");
    expect(required.body).toMatchObject({ exitCode: 1, result: null });
    expect(required.body.stderr).toMatch(/require is not defined/);
    expect((await execute("return await import('node:fs')")).body.exitCode).toBe(1);
    expect((await execute("return [typeof process, typeof fetch, typeof require, typeof globalThis.process]")).body.result).toEqual(["undefined", "undefined", "undefined", "undefined"]);
    const escape = await execute("return page.goto.constructor('return process')().env");
    expect(escape.body.exitCode).toBe(1);
    expect(escape.body.stderr).toMatch(/Code generation from strings disallowed/);
    expect((await execute("return eval('1 + 1')")).body.stderr).toMatch(/Code generation from strings disallowed/);
  });

  it("a syntax error is the code's own failure, with its message", async () => {
    const ran = await execute("return (");
    expect(ran.body.exitCode).toBe(1);
    expect(ran.body.stderr).toMatch(/SyntaxError/);
  });

  it("the page reaches no private address unless serve allows it", async () => {
    const session = (await guarded.call("POST", "/v2/browser", { body: {} })).body.id;
    const ran = await guarded.call("POST", `/v2/browser/${session}/execute`, { body: { code: `try { await page.goto(${JSON.stringify(site.url)}); return await page.content(); } catch (e) { return String(e.message); }` } });
    expect(ran.body.result).not.toContain("private page");
    expect(ran.body.result).toMatch(/private|loopback|not allowed|refused/i);
  });
});
