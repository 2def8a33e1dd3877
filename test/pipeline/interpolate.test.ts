import { describe, expect, it } from "vitest";
import { interpolate } from "../../src/pipeline/interpolate.js";
import { parseYaml, toData } from "../../src/pipeline/yaml/yaml-doc.js";

function run(text: string, env: Record<string, string>) {
  const parsed = parseYaml("p.yaml", text);
  if (!parsed.ok) throw new Error("fixture does not parse");
  const result = interpolate(parsed.source, env);
  const data = toData(parsed.source);
  return { ...result, data: data.ok ? data.data : undefined };
}

describe("interpolate", () => {
  it("replaces ${VAR} inside strings", () => {
    const { data, interpolations } = run('a: "Bearer ${TOKEN}"\n', { TOKEN: "s3cret" });
    expect(data).toEqual({ a: "Bearer s3cret" });
    expect(interpolations).toEqual([{ path: ["a"], written: "Bearer ${TOKEN}", variables: [{ name: "TOKEN", value: "s3cret" }] }]);
  });

  it("uses the default when the variable is unset or empty", () => {
    expect(run("a: ${X:-fallback}\nb: ${Y:-}\n", { Y: "" }).data).toEqual({ a: "fallback", b: "" });
  });

  it("types a whole plain scalar that becomes a number or boolean", () => {
    expect(run("n: ${N:-4}\nb: ${B}\nq: '${N:-4}'\n", { B: "true" }).data).toEqual({ n: 4, b: true, q: "4" });
  });

  it("keeps $${ as a literal ${", () => {
    expect(run("a: cost $${PRICE}\n", {}).data).toEqual({ a: "cost ${PRICE}" });
  });

  it("records the path of values inside sequences and nested maps", () => {
    const { interpolations } = run("steps:\n  - scrape:\n      headers: { A: '${K}' }\n", { K: "v" });
    expect(interpolations[0]?.path).toEqual(["steps", 0, "scrape", "headers", "A"]);
  });

  it("reports an unset variable at its own column, and leaves the text as written", () => {
    const { diagnostics, data } = run('name: x\nurl: "https://${HOST}/p"\n', {});
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: "unset-variable", line: 2, column: 15, length: 7, message: "environment variable HOST is not set" }),
    ]);
    expect(data).toEqual({ name: "x", url: "https://${HOST}/p" });
  });

  it("reports malformed references", () => {
    const codes = run("a: ${not valid}\nb: x ${OPEN\n", {}).diagnostics.map((d) => d.code);
    expect(codes).toEqual(["bad-variable", "unterminated-variable"]);
  });

  it("leaves keys alone", () => {
    expect(run("${K}: 1\n", { K: "x" }).data).toEqual({ "${K}": 1 });
  });
});
