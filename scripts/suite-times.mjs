#!/usr/bin/env node
// Where the test suite spends its time, from vitest's JSON report:
//
//   npx vitest run --reporter=default --reporter=json --outputFile=/tmp/suite.json
//   node scripts/suite-times.mjs /tmp/suite.json                 time per folder, and the 30 slowest files
//   node scripts/suite-times.mjs /tmp/suite.json --depth 3       folders two levels under test/ (test/engines/crawl)
//   node scripts/suite-times.mjs /tmp/suite.json --slowest 50    the 50 slowest files
//   node scripts/suite-times.mjs /tmp/after.json --against /tmp/before.json   each folder and file beside an earlier report
//
// A file's time is the report's: from its first test's start to its last test's end (its imports
// and the setup before its first test are not in it, so the folders' sum is less than the wall
// time when files run one at a time, and can be more when they run side by side).
import { readFileSync } from "node:fs";
import { relative, sep } from "node:path";

const USAGE = "usage: node scripts/suite-times.mjs REPORT.json [--depth N] [--slowest N] [--against EARLIER.json]";

function parseArgs(argv) {
  const options = { report: undefined, depth: 2, slowest: 30, against: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) fail(`${arg} needs a value\n${USAGE}`);
      return next;
    };
    if (arg === "--depth") options.depth = positive(arg, value());
    else if (arg === "--slowest") options.slowest = positive(arg, value());
    else if (arg === "--against") options.against = value();
    else if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else if (arg.startsWith("-")) fail(`unknown option ${arg}\n${USAGE}`);
    else if (options.report === undefined) options.report = arg;
    else fail(`one report at a time (and --against for the earlier one)\n${USAGE}`);
  }
  if (options.report === undefined) fail(USAGE);
  return options;
}

function fail(message) {
  console.error(`suite-times: ${message}`);
  process.exit(2);
}

function positive(name, text) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) fail(`${name} takes a whole number of 1 or more, not ${JSON.stringify(text)}`);
  return n;
}

/** The report's files: path from the repository, seconds, tests, and whether all passed. */
function readReport(path) {
  let report;
  try {
    report = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    fail(`cannot read ${path}: ${error.message}`);
  }
  if (!Array.isArray(report.testResults)) fail(`${path} is not a vitest JSON report (no testResults)`);
  const files = report.testResults.map((file) => ({
    path: relative(process.cwd(), file.name).split(sep).join("/"),
    seconds: Math.max(0, (file.endTime ?? file.startTime) - file.startTime) / 1000,
    tests: file.assertionResults?.length ?? 0,
    failed: (file.assertionResults ?? []).filter((t) => t.status === "failed").length + (file.status === "failed" && !file.assertionResults?.length ? 1 : 0),
  }));
  const wall = report.testResults.length ? (Math.max(...report.testResults.map((f) => f.endTime ?? 0)) - report.startTime) / 1000 : 0;
  return { files, wall, passed: report.success === true };
}

const folderOf = (path, depth) => path.split("/").slice(0, -1).slice(0, depth).join("/") || ".";

function byFolder(files, depth) {
  const folders = new Map();
  for (const file of files) {
    const name = folderOf(file.path, depth);
    const row = folders.get(name) ?? { name, files: 0, tests: 0, seconds: 0 };
    row.files++;
    row.tests += file.tests;
    row.seconds += file.seconds;
    folders.set(name, row);
  }
  return [...folders.values()].sort((a, b) => b.seconds - a.seconds);
}

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

const s = (seconds) => seconds.toFixed(1);
const change = (now, before) => (before === undefined ? "new" : `${now - before >= 0 ? "+" : ""}${(now - before).toFixed(1)}`);

const options = parseArgs(process.argv.slice(2));
const now = readReport(options.report);
const earlier = options.against ? readReport(options.against) : undefined;
const total = now.files.reduce((sum, f) => sum + f.seconds, 0);

const folders = byFolder(now.files, options.depth);
const earlierFolders = earlier ? new Map(byFolder(earlier.files, options.depth).map((f) => [f.name, f.seconds])) : undefined;
const folderRows = folders.map((f) => [f.name, f.files, f.tests, s(f.seconds), `${((100 * f.seconds) / (total || 1)).toFixed(0)}%`, ...(earlierFolders ? [earlierFolders.has(f.name) ? s(earlierFolders.get(f.name)) : "-", change(f.seconds, earlierFolders.get(f.name))] : [])]);
const earlierTotal = earlier?.files.reduce((sum, f) => sum + f.seconds, 0);
folderRows.push(["all", now.files.length, now.files.reduce((n, f) => n + f.tests, 0), s(total), "100%", ...(earlier ? [s(earlierTotal), change(total, earlierTotal)] : [])]);
console.log(table(["folder", "files", "tests", "seconds", "share", ...(earlier ? ["before", "change"] : [])], folderRows));
console.log(`\nwall time ${s(now.wall)} s${earlier ? ` (before: ${s(earlier.wall)} s)` : ""}; ${now.passed ? "all passed" : `${now.files.reduce((n, f) => n + f.failed, 0)} failed`}${earlier && !earlier.passed ? " (the earlier report had failures)" : ""}\n`);

const earlierFiles = earlier ? new Map(earlier.files.map((f) => [f.path, f.seconds])) : undefined;
const slowest = [...now.files].sort((a, b) => b.seconds - a.seconds).slice(0, options.slowest);
console.log(table(["file", "tests", "seconds", ...(earlierFiles ? ["before", "change"] : [])], slowest.map((f) => [f.path, f.tests, s(f.seconds), ...(earlierFiles ? [earlierFiles.has(f.path) ? s(earlierFiles.get(f.path)) : "-", change(f.seconds, earlierFiles.get(f.path))] : [])])));
