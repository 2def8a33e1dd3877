// Every example the README and `scrapeline --help` show must work as written: pipeline files they
// name exist and validate (and plan), options they use exist, yaml blocks that are pipelines (or
// parts of one) validate, `npm run` names a script, and the diagnostics shown are the real output.
// Nothing here reaches the network: validate and plan are enough.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { codeBlocks, commandLines, helpCommands, helpExamples, inlineCode, scraplineArgs, words } from "./examples.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(ROOT, "dist/cli/main.js");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const tmp = mkdtempSync(join(tmpdir(), "scrapeline-readme-"));

function cli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...options.env };
  delete env.SCRAPELINE_DB;
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, encoding: "utf8", env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const helps = new Map<string, string>();
function help(path: string[]): string {
  const key = path.join(" ");
  if (!helps.has(key)) helps.set(key, cli([...path, "--help"]).stdout);
  return helps.get(key)!;
}

interface Example { where: string; args: string[] }

/** The `scrapeline …` commands of the README: its shell blocks and its inline code. */
function readmeCommands(): Example[] {
  const out: Example[] = [];
  for (const block of codeBlocks(README).filter((b) => b.lang === "sh")) {
    const lines = block.text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const start = i;
      let text = lines[i]!;
      while (text.endsWith("\\") && i + 1 < lines.length) text += `\n${lines[++i]}`; // continuation lines
      for (const line of commandLines(text)) {
        const args = scraplineArgs(line);
        if (args) out.push({ where: `README.md:${block.line + 1 + start}`, args });
      }
    }
  }
  for (const span of inlineCode(README)) {
    if (!span.code.startsWith("scrapeline ")) continue;
    for (const line of commandLines(span.code)) {
      const args = scraplineArgs(line);
      if (args) out.push({ where: `README.md:${span.line}`, args });
    }
  }
  return out;
}

/** The example lines of `scrapeline --help` and of every command's and action's --help. */
function helpCommandsExamples(): Example[] {
  const out: Example[] = [];
  const visit = (path: string[]) => {
    const text = help(path);
    for (const line of helpExamples(text).flatMap(commandLines)) out.push({ where: `scrapeline ${[...path, "--help"].join(" ")}`, args: scraplineArgs(line)! });
    for (const sub of helpCommands(text)) visit([...path, sub]);
  };
  visit([]);
  return out;
}

/** Pipeline files (and folders of them) a command names, relative to the repository. */
function pipelinePaths(args: string[]): string[] {
  return args.filter((a) => !a.startsWith("-") && (/\.ya?ml$/.test(a) || a.startsWith("pipelines/")));
}

const checked = new Map<string, ReturnType<typeof cli>>();
function once(args: string[]) {
  const key = args.join("\0");
  if (!checked.has(key)) checked.set(key, cli(args));
  return checked.get(key)!;
}

function checkCommand(example: Example): void {
  const [name, action] = example.args;
  let path: string[] = [];
  if (name && !name.startsWith("-")) {
    expect(helpCommands(help([])), `${example.where}: "scrapeline ${name}" is not a command`).toContain(name);
    path = action && helpCommands(help([name])).includes(action) ? [name, action] : [name];
  }
  const text = help(path);
  for (const arg of example.args.filter((a) => a.startsWith("--"))) {
    const flag = arg.split("=")[0]!;
    const names = flag.startsWith("--no-") ? [flag, `--${flag.slice(5)}`] : [flag];
    const known = names.some((n) => new RegExp(`(^|\\s)${n.replace(/[-]/g, "\\-")}(\\s|$)`, "m").test(text));
    expect(known, `${example.where}: scrapeline ${path.join(" ")} has no option ${flag}`).toBe(true);
  }
  for (const file of pipelinePaths(example.args)) {
    expect(existsSync(join(ROOT, file)), `${example.where}: ${file} does not exist`).toBe(true);
    const validated = once(["validate", file]);
    expect(validated.code, `${example.where}: scrapeline validate ${file}\n${validated.stdout}${validated.stderr}`).toBe(0);
    if (statSync(join(ROOT, file)).isFile()) {
      const planned = once(["plan", file]);
      expect(planned.code, `${example.where}: scrapeline plan ${file}\n${planned.stderr}`).toBe(0);
    }
  }
}

describe("README commands", () => {
  const examples = readmeCommands();

  it("are found: the quick start's and the reference's", () => {
    const lines = examples.map((e) => e.args.join(" "));
    expect(lines).toContain("validate pipelines/");
    expect(lines).toContain("plan pipelines/prices.yaml");
    expect(lines).toContain("teams policy --team acme --enabled --enforced --mode normal --blacklist bad.example,*.tracker.example --whitelist partner.example --blocked-tlds zip,mov --risk-score-threshold 60 --failure-policy closed");
    expect(examples.length).toBeGreaterThan(20);
  });

  for (const example of examples) {
    it(`${example.where}: scrapeline ${example.args.join(" ")}`, () => checkCommand(example));
  }

  it("the Commands table has a row for every command of scrapeline --help", () => {
    const section = README.slice(README.indexOf("## Commands"), README.indexOf("\n## ", README.indexOf("## Commands") + 1));
    const rows = new Set([...section.matchAll(/^\| `scrapeline ([a-z-]+)/gm)].map((m) => m[1]!));
    const commands = helpCommands(help([]));
    expect(commands.length).toBeGreaterThan(15);
    expect(commands.filter((name) => !rows.has(name))).toEqual([]);
  });
});

describe("--help examples", () => {
  const examples = helpCommandsExamples();

  it("are found in the top-level help and the commands' help", () => {
    expect(examples.map((e) => e.where)).toEqual(expect.arrayContaining(["scrapeline --help", "scrapeline run --help", "scrapeline plan --help"]));
  });

  for (const example of examples) {
    it(`${example.where}: scrapeline ${example.args.join(" ")}`, () => checkCommand(example));
  }
});

describe("README yaml blocks", () => {
  const blocks = codeBlocks(README).filter((b) => b.lang === "yaml");

  it("are found", () => expect(blocks.length).toBeGreaterThanOrEqual(3));

  for (const block of blocks) {
    it(`README.md:${block.line} is valid YAML and, as (part of) a pipeline, a valid pipeline`, () => {
      const doc = parse(block.text) as Record<string, unknown> | null;
      if (doc === null) return expect(block.text.trim().startsWith("#")).toBe(true); // a comment line only
      if (Array.isArray(doc)) {
        // A CI workflow's steps: every scrapeline command they run exists, with its options.
        const runs = doc.flatMap((s: { run?: unknown }) => (typeof s?.run === "string" ? s.run.split("\n") : [])).map(scraplineArgs).filter((a) => a !== undefined);
        expect(runs.length, `README.md:${block.line}: a workflow block that runs no scrapeline command`).toBeGreaterThan(0);
        for (const args of runs) checkCommand({ where: `README.md:${block.line}`, args });
        return;
      }
      let pipeline: Record<string, unknown>;
      if ("version" in doc) pipeline = doc;
      else if ("steps" in doc) pipeline = { version: 1, name: "readme-example", ...doc };
      else if ("schema" in doc) pipeline = { version: 1, name: "readme-example", extractor: "deterministic", steps: [{ id: "extract", extract: { urls: ["https://example.com/"], ...doc } }] };
      else throw new Error(`README.md:${block.line}: a yaml block that is no part of a pipeline`);
      const file = join(tmp, `readme-${block.line}.yaml`);
      writeFileSync(file, JSON.stringify(pipeline, null, 2));
      // ${VAR} references in the example stand for values the reader provides
      const env = Object.fromEntries([...block.text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)\}/g)].map((m) => [m[1]!, `https://example.com/${m[1]!.toLowerCase()}`]));
      // The reader has set up what the example needs (a model, a search provider): validate warns otherwise.
      const configured = { SCRAPELINE_LLM_BASE_URL: "http://127.0.0.1:11434/v1", SCRAPELINE_LLM_MODEL: "example", SCRAPELINE_SEARXNG_URL: "http://127.0.0.1:8888" };
      const r = cli(["validate", "--strict", file], { env: { ...configured, ...env } });
      expect(r.code, `README.md:${block.line}\n${r.stdout}${r.stderr}`).toBe(0);
    });
  }
});

describe("README npm commands", () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const lines = codeBlocks(README).filter((b) => b.lang === "sh").flatMap((b) => commandLines(b.text)).filter((l) => l.startsWith("npm "));

  it("name scripts of package.json", () => {
    expect(lines).toEqual(expect.arrayContaining(["npm ci", "npm run demo", "npm test"]));
    for (const line of lines) {
      const [, verb, script] = words(line);
      if (verb === "run") expect(Object.keys(scripts), line).toContain(script);
      if (verb === "test") expect(Object.keys(scripts), line).toContain("test");
    }
  });
});

describe("README diagnostics", () => {
  const block = codeBlocks(README).find((b) => b.lang === "" && b.text.startsWith("error["))!;
  const short = inlineCode(README).find((s) => /^\S+\.yaml:\d+:\d+: error\[/.test(s.code))!;

  it("are the output of validate on the example pipeline they name, with the key misspelled", () => {
    expect(block, "the long-form example").toBeDefined();
    expect(short, "the short-form example").toBeDefined();
    const [, file, line, key, correct] = /^(\S+):(\d+):\d+: error\[unknown-key\]: unknown key "([^"]+)".*did you mean "([^"]+)"/.exec(short.code)!;
    const source = readFileSync(join(ROOT, file!), "utf8").split("\n");
    const at = Number(line) - 1;
    expect(source[at], `${file}:${line} holds the key the example misspells`).toContain(`${correct}:`);
    source[at] = source[at]!.replace(`${correct}:`, `${key}:`);
    const cwd = join(tmp, "diagnostics");
    mkdirSync(join(cwd, dirname(file!)), { recursive: true });
    writeFileSync(join(cwd, file!), source.join("\n"));
    expect(cli(["validate", file!, "--format", "short"], { cwd }).stdout).toBe(`${short.code}\n`);
    const long = cli(["validate", file!, "--format", "long"], { cwd }).stdout; // then a blank line and the count
    expect(long.slice(0, block.text.length + 1)).toBe(block.text + "\n");
  });
});
