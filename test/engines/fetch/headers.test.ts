import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchGate, requestHeaders, type FetchGate } from "../../../src/engines/local/fetch/index.js";
import { startHttpServer, type TestServer } from "./servers.js";

let echo: TestServer;
let gate: FetchGate;

beforeAll(async () => {
  echo = await startHttpServer((req, res) => {
    res.setHeader("Set-Cookie", ["a=1", "b=2"]);
    res.setHeader("X-Mixed-Case", "yes");
    res.end(JSON.stringify(req.headers));
  });
  gate = createFetchGate({ allowPrivateNetwork: true });
});

afterAll(async () => {
  await gate.close();
  await echo.close();
});

async function sent(headers: Record<string, string>): Promise<Record<string, string>> {
  const response = await gate.fetch({ url: echo.url("/"), timeoutMs: 5000, headers });
  return JSON.parse(response.body.toString()) as Record<string, string>;
}

describe("requestHeaders", () => {
  it("defaults to a desktop browser that names scrapeline", () => {
    const headers = requestHeaders({ mobile: false });
    expect(headers["User-Agent"]).toMatch(/^Mozilla\/5\.0 \(X11; Linux x86_64\).*scrapeline\/0\.1$/);
    expect(headers["Accept-Encoding"]).toBe("gzip, deflate, br");
    expect(headers.Accept).toContain("text/html");
    expect(headers["Sec-CH-UA-Mobile"]).toBeUndefined();
    expect(headers["Accept-Language"]).toBeUndefined();
  });

  it("sends a mobile browser's headers for mobile", () => {
    const headers = requestHeaders({ mobile: true });
    expect(headers["User-Agent"]).toContain("Mobile");
    expect(headers["User-Agent"]).toContain("scrapeline");
    expect(headers["Sec-CH-UA-Mobile"]).toBe("?1");
    expect(headers["Viewport-Width"]).toBe("390");
  });

  it.each([
    [{ country: "US" }, "en-US,en;q=0.9"],
    [{ country: "DE" }, "de-DE,de;q=0.9,en;q=0.8"],
    [{ country: "fr" }, "fr-FR,fr;q=0.9,en;q=0.8"],
    [{ country: "JP" }, "ja-JP,ja;q=0.9,en;q=0.8"],
    [{ country: "ZZ" }, "en;q=0.8"],
    [{ country: "US", languages: ["de-CH", "fr", "en"] }, "de-CH,fr;q=0.9,en;q=0.8"],
  ])("derives Accept-Language from %j", (location, expected) => {
    expect(requestHeaders({ mobile: false, location })["Accept-Language"]).toBe(expected);
  });

  it("lets the caller's headers replace defaults whatever their case", () => {
    const headers = requestHeaders({ mobile: true, location: { country: "DE" }, headers: { "user-agent": "custom/1", "accept-language": "it", "X-Extra": "1" } });
    expect(headers["user-agent"]).toBe("custom/1");
    expect(headers["User-Agent"]).toBeUndefined();
    expect(headers["accept-language"]).toBe("it");
    expect(headers["Accept-Language"]).toBeUndefined();
    expect(headers["X-Extra"]).toBe("1");
    expect(headers["Sec-CH-UA-Mobile"]).toBe("?1");
  });
});

describe("headers on the wire", () => {
  it("sends the headers it is given", async () => {
    const received = await sent(requestHeaders({ mobile: false, location: { country: "DE" }, headers: { "X-Api-Key": "k1" } }));
    expect(received["user-agent"]).toContain("scrapeline/0.1");
    expect(received["accept-encoding"]).toBe("gzip, deflate, br");
    expect(received["accept-language"]).toBe("de-DE,de;q=0.9,en;q=0.8");
    expect(received["x-api-key"]).toBe("k1");
  });

  it("sends a mobile user agent and client hints", async () => {
    const received = await sent(requestHeaders({ mobile: true }));
    expect(received["user-agent"]).toContain("Mobile");
    expect(received["sec-ch-ua-mobile"]).toBe("?1");
    expect(received["viewport-width"]).toBe("390");
  });

  it("turns credentials in the URL into Basic authorization", async () => {
    const url = echo.url("/").replace("http://", "http://us%40er:p%3Ass@");
    const received = JSON.parse((await gate.fetch({ url, timeoutMs: 5000 })).body.toString()) as Record<string, string>;
    expect(received.authorization).toBe(`Basic ${Buffer.from("us@er:p:ss").toString("base64")}`);
  });

  it("lower-cases response header names and joins repeated values", async () => {
    const response = await gate.fetch({ url: echo.url("/"), timeoutMs: 5000 });
    expect(response.headers["set-cookie"]).toBe("a=1, b=2");
    expect(response.headers["x-mixed-case"]).toBe("yes");
    expect(Object.keys(response.headers).every((name) => name === name.toLowerCase())).toBe(true);
  });

  it.each<Record<string, string>>([{ "Transfer-Encoding": "chunked-s3cret" }, { "X-Token": "s3cret\r\nInjected: 1" }])("refuses %j as invalid input without echoing its value", async (headers) => {
    const error = await gate.fetch({ url: echo.url("/"), timeoutMs: 5000, headers }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "invalid-input" });
    expect((error as Error).message).not.toContain("s3cret");
  });
});
