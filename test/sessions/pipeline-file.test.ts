import { describe, expect, it } from "vitest";
import { loadPipelineText } from "../../src/pipeline/index.js";

const file = (steps: string, session = "") => `version: 1
name: t
sessions:
  members:
    url: https://example.com/login
    actions: [{ type: click, selector: "#go" }]
    successWhen: { selector: "#logout" }
${session}steps:
${steps}`;

describe("sessions in the pipeline file", () => {
  it("normalizes a session: actions with their defaults, maxAge in milliseconds, the step's session", () => {
    const loaded = loadPipelineText("p.yaml", file("  - id: a\n    session: members\n    scrape: { url: https://example.com/a }\n"));
    expect(loaded.diagnostics).toEqual([]);
    const spec = loaded.pipeline?.sessions?.members;
    expect(spec).toMatchObject({ name: "members", url: "https://example.com/login", maxAgeMs: 12 * 3_600_000, timeoutMs: 30_000, successWhen: { selector: "#logout" } });
    expect(spec?.actions[0]).toMatchObject({ type: "click", selector: "#go" });
    expect(loaded.pipeline?.steps[0]?.session).toBe("members");
  });

  it("reports a step naming an undeclared session at its line and column, with the likely name", () => {
    const loaded = loadPipelineText("p.yaml", file("  - id: a\n    session: member\n    scrape: { url: https://example.com/a }\n"));
    const found = loaded.diagnostics.find((d) => d.code === "unknown-session");
    expect(found).toMatchObject({ file: "p.yaml", line: 10, column: 14, severity: "error" });
    expect(found?.hint).toBe('did you mean "members"?');
    expect(loaded.pipeline).toBeUndefined();
  });

  it("refuses a session on a map step, two success checks, and a maxAge that is not a duration", () => {
    const map = loadPipelineText("p.yaml", file("  - id: a\n    session: members\n    map: { url: https://example.com/ }\n"));
    expect(map.diagnostics.map((d) => d.code)).toContain("session-not-used");
    const two = loadPipelineText("p.yaml", file("  - id: a\n    scrape: { url: https://example.com/a }\n").replace('successWhen: { selector: "#logout" }', 'successWhen: { selector: "#logout", textContains: "Hi" }'));
    expect(two.pipeline).toBeUndefined();
    expect(two.diagnostics[0]?.line).toBe(7);
    const age = loadPipelineText("p.yaml", file("  - id: a\n    scrape: { url: https://example.com/a }\n").replace("successWhen:", "maxAge: soon\n    successWhen:"));
    expect(age.pipeline).toBeUndefined();
    expect(age.diagnostics[0]?.line).toBe(7);
  });
});

describe("expiredWhen", () => {
  const step = "  - id: a\n    session: members\n    scrape: { url: https://example.com/a }\n";

  it("is kept on the session when declared, and absent otherwise (successWhen is never a page check)", () => {
    const with_ = loadPipelineText("p.yaml", file(step, '    expiredWhen: { textContains: "Please sign in" }\n'));
    expect(with_.diagnostics).toEqual([]);
    expect(with_.pipeline?.sessions?.members?.expiredWhen).toEqual({ textContains: "Please sign in" });
    expect(loadPipelineText("p.yaml", file(step)).pipeline?.sessions?.members).not.toHaveProperty("expiredWhen");
  });

  it("reports a urlMatches that does not compile, and two checks at once, at their place in the file", () => {
    const bad = loadPipelineText("p.yaml", file(step, '    expiredWhen: { urlMatches: "(/login" }\n'));
    const regex = bad.diagnostics.find((d) => d.code === "bad-regex");
    expect(regex).toMatchObject({ file: "p.yaml", line: 8, severity: "error" });
    expect(regex?.message).toContain("urlMatches is not a valid regular expression");
    const two = loadPipelineText("p.yaml", file(step, '    expiredWhen: { urlMatches: "/login", selector: "form" }\n'));
    expect(two.pipeline).toBeUndefined();
    expect(two.diagnostics[0]?.line).toBe(8);
  });
});

describe("credentials in a login", () => {
  it("warns at a write action whose text is written in the file, not taken from the environment", () => {
    const yaml = `version: 1
name: t
sessions:
  members:
    url: https://example.com/login
    actions:
      - { type: write, text: "\${SITE_USER}" }
      - { type: write, text: "hunter2-in-the-file" }
    successWhen: { selector: "#logout" }
steps:
  - id: a
    session: members
    scrape: { url: https://example.com/a }
`;
    const loaded = loadPipelineText("p.yaml", yaml, { env: { SITE_USER: "ada" } });
    expect(loaded.pipeline).toBeDefined();
    const warnings = loaded.diagnostics.filter((d) => d.code === "credential-in-file");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ severity: "warning", line: 8 });
  });
});

describe("sessions on the firecrawl engine", () => {
  it("are refused when the file is loaded, at the step's session, naming the step and the engine", () => {
    const yaml = file("  - id: orders\n    session: members\n    crawl: { url: https://example.com/orders }\n").replace("name: t\n", "name: t\nengine: { kind: firecrawl }\n");
    const loaded = loadPipelineText("p.yaml", yaml);
    expect(loaded.pipeline).toBeUndefined();
    const found = loaded.diagnostics.find((d) => d.code === "session-on-firecrawl");
    expect(found).toMatchObject({ file: "p.yaml", line: 11, column: 14, severity: "error" });
    expect(found?.message).toBe('step "orders" uses session "members", which the firecrawl engine cannot do: the service has no pipeline sessions (logins are made and kept by the local engine)');
    // The same file on the local engine loads.
    expect(loadPipelineText("p.yaml", yaml.replace("kind: firecrawl", "kind: local")).diagnostics).toEqual([]);
  });
});
