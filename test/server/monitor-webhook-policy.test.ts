import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HookServer } from "../helpers/hook.js";
import { startServe, type Serve } from "./helpers.js";

/** A monitor's webhook is held to serve's network policy when it is made or changed, not first when it is used. */

const hook = new HookServer();
let hookUrl = "";
let strict: Serve;
let open: Serve;

beforeAll(async () => {
  hookUrl = `${await hook.start()}/hook`;
  strict = await startServe({ a: {} }, { allowPrivateNetwork: false });
  open = await startServe({ a: {} }, { allowPrivateNetwork: true });
});
afterAll(async () => {
  await strict?.stop();
  await open?.stop();
  await hook.stop();
});

const monitorBody = (webhook?: unknown) => ({ name: "item", schedule: { cron: "0 * * * *", timezone: "UTC" }, targets: [{ type: "scrape", urls: ["https://example.com/item"] }], ...(webhook ? { webhook } : {}) });

describe("webhook targets and the network policy", () => {
  it("refuses a loopback or private webhook at creation with a 400 naming the network policy", async () => {
    for (const url of [hookUrl, "http://10.1.2.3/hook", "http://[::1]:9/hook", "http://localhost:9/hook"]) {
      const r = await strict.call("POST", "/v2/monitor", { body: monitorBody({ url }) });
      expect(r.status, url).toBe(400);
      expect(r.body.error).toMatch(/^Bad Request: webhook\.url: refused by the network policy: .*\(use --allow-private-network to reach private networks\)$/);
    }
    const short = await strict.call("POST", "/v2/monitor", { body: monitorBody(hookUrl) });
    expect(short.status).toBe(400);
    expect((await strict.call("GET", "/v2/monitor")).body.data).toEqual([]);
  });

  it("refuses one set by an update; an update that leaves the webhook alone, and a public one, are accepted", async () => {
    const made = await strict.call("POST", "/v2/monitor", { body: monitorBody() });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.data.id as string;
    const patched = await strict.call("PATCH", `/v2/monitor/${id}`, { body: { webhook: { url: "http://192.168.0.10/hook" } } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toContain("refused by the network policy");
    expect((await strict.call("GET", `/v2/monitor/${id}`)).body.data.webhook).toBeUndefined();
    const renamed = await strict.call("PATCH", `/v2/monitor/${id}`, { body: { name: "renamed" } });
    expect(renamed.status).toBe(200);
    // A public address literal needs no lookup.
    const publicHook = await strict.call("PATCH", `/v2/monitor/${id}`, { body: { webhook: "https://93.184.215.14/hook" } });
    expect(publicHook.status, JSON.stringify(publicHook.body)).toBe(200);
  });

  it("accepts a private webhook when serve was started with --allow-private-network", async () => {
    const r = await open.call("POST", "/v2/monitor", { body: monitorBody({ url: hookUrl }) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.webhook.url).toBe(hookUrl);
  });
});
