import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FixtureSite, htmlPage } from "../helpers/site.js";
import { pipeline, readDocuments, runYaml } from "../run/helpers.js";

/** What a local file would show: the first line of /etc/passwd, a folder listing, Chromium's version page. */
const LOCAL = /root:x:0:0|Index of|Chromium Authors|Command Line/;

const site = new FixtureSite();

beforeAll(async () => {
  site.page("/", htmlPage("Start", "<p>A page</p>"));
  site.page("/next", htmlPage("Next page", `<p id="second">The second page</p>`));
  site.route("/to-file", (_req, res) => res.writeHead(302, { location: "file:///etc/passwd" }).end());
  site.page("/frames", htmlPage("Frames", `<iframe src="file:///etc/passwd"></iframe><iframe src="view-source:file:///etc/passwd"></iframe><iframe src="chrome://version"></iframe><object data="file:///etc/"></object><p>after the frames</p>`));
  await site.start();
});

afterAll(async () => {
  await site.stop();
});

describe("a local pipeline's browser actions reach no local URL", () => {
  it("location=, window.open, iframes, <object> and a redirect to file: in scrape actions and an interact step load nothing local", async () => {
    // Each script ends by going on to /next; when that page is there, what the script asked before is over.
    const away = (target: string) => `{ type: executeJavascript, script: "location.href = '${target}'; window.open('${target}'); setTimeout(() => { location.href = '/next' }, 0)" }`;
    const steps = `  - id: start
    scrape:
      url: ${site.url}/
      actions: [${away("file:///etc/passwd")}, { type: wait, selector: "#second" }, { type: scrape }]
  - id: frames
    scrape: { url: ${site.url}/frames, actions: [{ type: wait, selector: "iframe" }] }
  - id: redirect
    scrape: { url: ${site.url}/to-file, actions: [{ type: wait, selector: "body" }] }
  - id: carry
    interact:
      from: start
      actions: [{ type: executeJavascript, script: "location.href = '/'" }, { type: wait, selector: "nav" }, ${away("view-source:file:///etc/passwd")}, { type: wait, selector: "#second" }, ${away("chrome://version")}, { type: wait, selector: "#second" }]
`;
    const { result, db } = await runYaml(pipeline(steps));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const docs = readDocuments(db, result.runId);
    const stored = JSON.stringify(docs);
    expect(stored).not.toMatch(LOCAL);
    const start = docs.find((d) => d.stepId === "start");
    expect(start?.document.markdown).toContain("The second page");
    expect(docs.find((d) => d.stepId === "frames")?.document.markdown).toContain("after the frames");
    expect(docs.find((d) => d.stepId === "carry")?.document.markdown).toContain("The second page");
    expect(docs.some((d) => d.stepId === "redirect")).toBe(false);
  });
});
