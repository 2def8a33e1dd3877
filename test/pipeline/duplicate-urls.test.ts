import { describe, expect, it } from "vitest";
import { loadPipelineText } from "../../src/pipeline/index.js";

describe("a scrape step's urls", () => {
  it("listing a URL twice is an error at the repeat, whatever the list's style", () => {
    const block = "version: 1\nname: t\nsteps:\n  - id: s\n    scrape:\n      urls:\n        - https://example.com/a\n        - https://example.com/b\n        - https://example.com/a\n";
    const found = loadPipelineText("p.yaml", block).diagnostics.find((d) => d.code === "duplicate-item");
    expect(found).toMatchObject({ line: 9, column: 11, severity: "error" });
    expect(found?.message).toBe('urls in scrape step "s" lists "https://example.com/a" twice');
    const flow = 'version: 1\nname: t\nsteps:\n  - id: s\n    scrape: { urls: ["https://example.com/a", "https://example.com/a"] }\n';
    expect(loadPipelineText("p.yaml", flow).diagnostics.find((d) => d.code === "duplicate-item")).toMatchObject({ line: 5, column: 47 });
  });
});
