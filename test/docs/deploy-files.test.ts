// The deploy files (deploy/): each parses (YAML, systemd units with an ExecStart), and every
// `scrapeline <command>` they run exists in the built CLI, with the options they give it.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { words } from "./examples.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DEPLOY = join(ROOT, "deploy");
const CLI = join(ROOT, "dist/cli/main.js");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

interface Invocation {
  where: string;
  /** The words after `scrapeline`: the command, then its arguments. */
  args: string[];
}

/** The arguments after a word that names the scrapeline executable (`scrapeline`, `/usr/local/bin/scrapeline`). */
function afterScrapeline(line: readonly string[]): string[] | undefined {
  const at = line.findIndex((word) => basename(word) === "scrapeline");
  return at === -1 ? undefined : line.slice(at + 1);
}

/** Every `command` and `args` of a YAML document (compose services, Kubernetes containers), as words. */
function yamlCommands(node: unknown, out: string[][] = []): string[][] {
  if (Array.isArray(node)) for (const item of node) yamlCommands(item, out);
  else if (node !== null && typeof node === "object") {
    const record = node as Record<string, unknown>;
    const command = record.command;
    if (command !== undefined) {
      const line = Array.isArray(command) ? command.map(String) : words(String(command));
      out.push([...line, ...(Array.isArray(record.args) ? record.args.map(String) : [])]);
    }
    for (const [key, value] of Object.entries(record)) if (key !== "command") yamlCommands(value, out);
  }
  return out;
}

const files = filesUnder(DEPLOY).map((path) => ({ path, name: relative(ROOT, path), text: readFileSync(path, "utf8") }));
const invocations: Invocation[] = [];

describe("deploy files", () => {
  it("are there: a systemd template unit for watchers, a compose file, a Kubernetes CronJob", () => {
    expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(["deploy/systemd/scrapeline-watch@.service", "deploy/compose.yaml", "deploy/kubernetes/watch-cronjob.yaml"]));
  });

  for (const file of files.filter((f) => /\.ya?ml$/.test(f.name))) {
    it(`${file.name} is valid YAML that runs scrapeline`, () => {
      const documents = parseAllDocuments(file.text);
      for (const document of documents) expect(document.errors.map((e) => e.message), file.name).toEqual([]);
      const runs = documents.flatMap((d) => yamlCommands(d.toJS())).map(afterScrapeline).filter((a) => a !== undefined);
      expect(runs.length, `${file.name} runs no scrapeline command`).toBeGreaterThan(0);
      invocations.push(...runs.map((args) => ({ where: file.name, args })));
    });
  }

  for (const file of files.filter((f) => f.name.endsWith(".service"))) {
    it(`${file.name} is a systemd unit whose ExecStart runs scrapeline`, () => {
      const lines = file.text.split("\n").filter((line) => !/^\s*[#;]/.test(line));
      const sections = lines.filter((line) => /^\[\w+\]\s*$/.test(line)).map((line) => line.trim());
      expect(sections, file.name).toEqual(["[Unit]", "[Service]", "[Install]"]);
      for (const line of lines) expect(line.trim() === "" || /^\[\w+\]$/.test(line.trim()) || /^[A-Za-z]+=/.test(line), `${file.name}: ${line}`).toBe(true);
      const exec = lines.filter((line) => line.startsWith("ExecStart="));
      expect(exec, file.name).toHaveLength(1);
      const args = afterScrapeline(words(exec[0]!.slice("ExecStart=".length)));
      expect(args, `${file.name}: ExecStart runs no scrapeline command`).toBeDefined();
      invocations.push({ where: file.name, args: args! });
    });
  }

  it("run scrapeline commands that exist, with options they have", () => {
    expect(invocations.map((i) => i.args[0])).toEqual(expect.arrayContaining(["serve", "watch", "run"]));
    for (const { where, args } of invocations) {
      const [command] = args;
      expect(command, `${where}: scrapeline with no command`).toMatch(/^[a-z][a-z-]*$/);
      const help = spawnSync(process.execPath, [CLI, command!, "--help"], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
      expect(help.status, `${where}: scrapeline ${command} --help\n${help.stderr}`).toBe(0);
      expect(help.stdout, `${where}: "scrapeline ${command}" is not a command`).toMatch(new RegExp(`^scrapeline ${command}\\b`));
      for (const flag of args.filter((a) => a.startsWith("--")).map((a) => a.split("=")[0]!)) {
        expect(help.stdout, `${where}: scrapeline ${command} has no option ${flag}`).toMatch(new RegExp(`(^|\\s)${flag}(\\s|$)`, "m"));
      }
    }
  });
});
