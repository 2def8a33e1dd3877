import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, runYaml, workdir } from "../run/helpers.js";

const site = new FixtureSite();
let body = "<p>Updated 10:00</p><p>Widget 10 EUR</p>";
const mails: Array<{ from: string; to: string[]; raw: string; user?: string }> = [];
const smtp = new SMTPServer({
  authOptional: false,
  allowInsecureAuth: true,
  disabledCommands: ["STARTTLS"],
  onAuth(auth, _session, callback) {
    if (auth.username === "mailer" && auth.password === "smtp-pass") callback(null, { user: auth.username });
    else callback(new Error("Invalid username or password"));
  },
  onData(stream, session, callback) {
    let raw = "";
    stream.on("data", (c: Buffer) => (raw += c.toString()));
    stream.on("end", () => {
      mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), raw, ...(typeof session.user === "string" ? { user: session.user } : {}) });
      callback();
    });
  },
  logger: false,
});
const slackTexts: string[] = [];
const slack = createServer((req: IncomingMessage, res) => {
  let data = "";
  req.on("data", (c) => (data += c));
  req.on("end", () => {
    slackTexts.push(JSON.parse(data).text);
    res.writeHead(200).end("ok");
  });
});
let smtpPort = 0;

beforeAll(async () => {
  site.route("/page", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Shop", body)));
  await site.start();
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  await new Promise<void>((r) => slack.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  await site.stop();
  await new Promise<void>((r) => smtp.close(() => r()));
  slack.closeAllConnections();
  await new Promise((r) => slack.close(r));
});

const step = () => `  - id: page\n    scrape: { url: "${site.url}/page", formats: [markdown, { type: changeTracking, modes: [git-diff] }] }\n`;

describe("notification channels", () => {
  it("mails through SMTP with user and password from variables, and posts Slack {text}; ignore and keywords decide what is worth telling", async () => {
    const db = join(workdir(), "c.db");
    const slackUrl = `http://127.0.0.1:${(slack.address() as AddressInfo).port}/services/T000/B000/XXXX`;
    const notify = `notify:\n  on: [changed]\n  rules: { ignore: ["^Updated \\\\d+:\\\\d+"], keywords: [eur] }\n  channels:\n    - email: { host: 127.0.0.1, port: ${smtpPort}, user: "\${SMTP_USER}", password: "\${SMTP_PASS}", from: watch@example.com, to: [ops@example.com] }\n    - slack: { url: "${slackUrl}" }\n`;
    const env = { ...process.env, SMTP_USER: "mailer", SMTP_PASS: "smtp-pass" };
    const yaml = pipeline(step(), notify);
    mails.length = 0;
    await runYaml(yaml, { db, env });

    // Only the timestamp moved: nothing worth telling.
    body = "<p>Updated 11:00</p><p>Widget 10 EUR</p>";
    const quiet = await runYaml(yaml, { db, env });
    if (!quiet.result.ok) throw new Error("invalid");
    expect(quiet.result.notify).toMatchObject({ sent: false, skipped: expect.stringMatching(/nothing changed worth telling/) });

    body = "<p>Updated 12:00</p><p>Widget 9 EUR</p>";
    const told = await runYaml(yaml, { db, env });
    if (!told.result.ok) throw new Error("invalid");
    expect(told.result.notify!.deliveries.map((d) => [d.channel, d.event, d.sent, d.target])).toEqual([
      ["email", "monitor.check.completed", true, `smtp://127.0.0.1:${smtpPort}`],
      ["slack", "monitor.check.completed", true, `http://127.0.0.1:${(slack.address() as AddressInfo).port}`],
    ]);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ from: "watch@example.com", to: ["ops@example.com"], user: "mailer" });
    expect(mails[0]!.raw).toMatch(/Subject: \[scrapeline\] test: 1 page\(s\) changed/);
    expect(mails[0]!.raw).toContain("+Widget 9 EUR");
    expect(slackTexts.at(-1)).toMatch(/^test \(run \d+, succeeded\): 1 changed, 0 new, 0 removed, 0 same, 0 failed\n• changed: .*\/page\n/);

    // A keyword absent from what was added: not told.
    body = "<p>Updated 12:00</p><p>Widget 9 USD</p>";
    const usd = await runYaml(yaml, { db, env });
    if (!usd.result.ok) throw new Error("invalid");
    expect(usd.result.notify).toMatchObject({ sent: false, skipped: expect.any(String) });
  });

  it("a refused SMTP login is recorded as a failed delivery (password never shown) and never fails the run", async () => {
    const db = join(workdir(), "bad.db");
    const notify = `notify:\n  channels:\n    - email: { host: 127.0.0.1, port: ${smtpPort}, user: mailer, password: "\${SMTP_PASS}", from: a@example.com, to: [b@example.com] }\n`;
    const { result } = await runYaml(pipeline(step(), notify), { db, env: { ...process.env, SMTP_PASS: "wrong-pass-123" } });
    if (!result.ok) throw new Error("invalid");
    expect(result.status).toBe("succeeded");
    expect(result.notify).toMatchObject({ sent: false, attempts: 1 });
    expect(result.notify!.error).toMatch(/Invalid username or password/);
    expect(JSON.stringify(result.notify)).not.toContain("wrong-pass-123");
  });

  it("sends failed (a run with failed pages) to the channels that ask for it", async () => {
    const db = join(workdir(), "failed.db");
    const slackUrl = `http://127.0.0.1:${(slack.address() as AddressInfo).port}/failed`;
    const steps = `${step()}  - id: missing\n    continueOnError: true\n    retry: { attempts: 1 }\n    scrape: { url: "http://127.0.0.1:1/unreachable" }\n`;
    const notify = `notify:\n  on: [failed]\n  channels:\n    - slack: { url: "${slackUrl}", events: [failed] }\n`;
    slackTexts.length = 0;
    const { result } = await runYaml(pipeline(steps, notify), { db });
    if (!result.ok) throw new Error("invalid");
    expect(result.notify!.deliveries.map((d) => [d.channel, d.event, d.sent])).toEqual([["slack", "failed", true]]);
    expect(slackTexts).toEqual([expect.stringMatching(/^test: run \d+ failed\n• http:\/\/127\.0\.0\.1:1\/unreachable: /)]);
  });

  it("mail goes through the private-network policy like pages", async () => {
    const db = join(workdir(), "gate.db");
    const notify = `notify:\n  channels:\n    - email: { host: 127.0.0.1, port: ${smtpPort}, from: a@example.com, to: [b@example.com] }\n`;
    const { LocalEngine } = await import("../../src/engines/local/index.js");
    const engine = new LocalEngine({ allowPrivateNetwork: true });
    const { result } = await runYaml(pipeline(step(), notify), { db, allowPrivateNetwork: false, engine });
    await engine.close();
    if (!result.ok) throw new Error("invalid");
    expect(result.notify).toMatchObject({ sent: false, attempts: 1 });
    expect(result.notify!.error).toMatch(/refused by the network policy: smtp:\/\/127\.0\.0\.1/);
  });
});

describe("threshold on a run's json data", () => {
  it("tells when a price fell by at least dropPercent since the previous run, read from the stored documents", async () => {
    const shop = new FixtureSite();
    let prices = [100, 20];
    shop.route("/shop", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(htmlPage("Shop", `<ul>${prices.map((p, i) => `<li class="product"><h2>Item ${i}</h2><span class="price">${p} EUR</span></li>`).join("")}</ul>`)));
    await shop.start();
    const received: string[] = [];
    const hook = createServer((req, res) => {
      let data = "";
      req.on("data", (c) => (data += c));
      req.on("end", () => {
        received.push(data);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    try {
      const schema = `{ type: object, properties: { products: { type: array, x-selector: li.product, items: { type: object, properties: { name: { type: string, x-selector: h2 }, price: { type: number, x-selector: .price } } } } } }`;
      const steps = `  - id: shop\n    scrape: { url: "${shop.url}/shop", formats: [markdown, { type: json, schema: ${schema} }, { type: changeTracking, modes: [git-diff] }] }\n`;
      const notify = `extractor: deterministic\nnotify:\n  on: [changed]\n  rules: { threshold: { field: "products[].price", dropPercent: 5 } }\n  channels:\n    - webhook: { url: "http://127.0.0.1:${(hook.address() as AddressInfo).port}/", events: [monitor.page] }\n`;
      const yaml = pipeline(steps, notify);
      const db = join(workdir(), "t.db");
      await runYaml(yaml, { db });
      prices = [97, 20]; // 3 %: changed, not worth telling
      const small = await runYaml(yaml, { db });
      if (!small.result.ok) throw new Error("invalid");
      expect(small.result.notify).toMatchObject({ sent: false, skipped: expect.any(String) });
      prices = [97, 18]; // 10 % on the second item
      const big = await runYaml(yaml, { db });
      if (!big.result.ok) throw new Error("invalid");
      expect(big.result.notify).toMatchObject({ sent: true });
      expect(JSON.parse(received[0]!)).toMatchObject({ event: "monitor.page", changeStatus: "changed", diff: expect.stringMatching(/^\+\s*18 EUR$/m) });
    } finally {
      await shop.stop();
      hook.closeAllConnections();
      await new Promise((r) => hook.close(r));
    }
  });
});
