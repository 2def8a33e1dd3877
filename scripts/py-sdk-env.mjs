#!/usr/bin/env node
// Prepares a Python virtual environment holding the service's Python SDK (firecrawl-py), for the
// conformance test of `scrapeline serve` (test/server/python-sdk.test.ts) and for running the
// SDK's own end-to-end tests against serve (scripts/py-sdk-e2e.mjs).
//
//   node scripts/py-sdk-env.mjs            prints the venv's python path (creating the venv once)
//   node scripts/py-sdk-env.mjs --json     prints {python, sdk} or {skip: reason} as JSON
//
// The SDK is the folder SCRAPELINE_PY_SDK names; without it the tests are skipped, saying so.
// The venv lives in node_modules/.cache/scrapeline-py-sdk/venv and is reused while the SDK's
// files are unchanged (a stamp of their sizes and times is kept beside it).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Where the SDK's source is: the folder SCRAPELINE_PY_SDK names (CI sets it); without it there is
 * nothing to test against and the tests say so.
 */
export function sdkFolder(env = process.env) {
  return env.SCRAPELINE_PY_SDK ? resolve(env.SCRAPELINE_PY_SDK) : undefined;
}

const cache = join(repo, "node_modules", ".cache", "scrapeline-py-sdk");
const venv = join(cache, "venv");
const python = join(venv, "bin", "python");
/** What the venv holds besides the SDK: pytest for the SDK's own tests (scripts/py-sdk-e2e.mjs). */
const EXTRAS = ["pytest", "pytest-asyncio"];
/** An index that cannot be reached is passed over at once for the others pip is configured with. */
const QUICK_INDEX = ["--retries", "0", "--timeout", "30"];

/** A stamp of the SDK's package files (names, sizes, times): a change reinstalls it. */
function stampOf(folder) {
  const hash = createHash("sha256");
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === "__pycache__" || name === "__tests__" || name.endsWith(".egg-info") || name === "build") continue;
      const path = join(dir, name);
      const info = statSync(path);
      if (info.isDirectory()) walk(path);
      else hash.update(`${path}\0${info.size}\0${info.mtimeMs}\n`);
    }
  };
  walk(folder);
  return hash.digest("hex");
}

function run(command, args, what) {
  const result = spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (result.error) throw new Error(`${what}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status}):\n${(result.stderr || result.stdout).trim().split("\n").slice(-15).join("\n")}`);
  return result.stdout;
}

/** The venv's python with the SDK installed, or a reason to skip. */
export function prepare(env = process.env) {
  const sdk = sdkFolder(env);
  if (!sdk) return { skip: "SCRAPELINE_PY_SDK does not name the Python SDK's folder (firecrawl-py)" };
  if (!existsSync(join(sdk, "firecrawl", "__init__.py"))) return { skip: `the Python SDK is not at ${sdk} (SCRAPELINE_PY_SDK)` };
  const system = env.SCRAPELINE_PYTHON || "python3";
  const probe = spawnSync(system, ["-c", "import venv, ensurepip"], { encoding: "utf8" });
  if (probe.error) return { skip: `${system} was not found; install Python 3.8 or later` };
  if (probe.status !== 0) return { skip: `${system} cannot make virtual environments (venv or ensurepip is missing); on Debian or Ubuntu: apt-get install python3-venv` };
  const stamp = `${stampOf(sdk)} ${EXTRAS.join(" ")}`;
  const stampFile = join(cache, "sdk.stamp");
  const ready = () => existsSync(python) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === `${sdk}\n${stamp}`;
  if (ready()) return { python, sdk };
  mkdirSync(cache, { recursive: true });
  // Test files that run at once may each find the environment missing: one makes it, the others wait for it.
  if (!takeLock(join(cache, "prepare.lock"), ready)) return { python, sdk };
  try {
    makeEnvironment(system, sdk);
    writeFileSync(stampFile, `${sdk}\n${stamp}`);
  } finally {
    rmSync(join(cache, "prepare.lock"), { recursive: true, force: true });
  }
  return { python, sdk };
}

/**
 * Takes the lock (a folder, made atomically) and answers true; or, while another process holds it,
 * waits until that one has finished and answers false when what it made is ready. A lock older
 * than ten minutes is a process that died holding it: it is taken over.
 */
function takeLock(lock, ready) {
  for (;;) {
    try {
      mkdirSync(lock);
      return true;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    let age = 0;
    try {
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if (age > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    if (!existsSync(lock) && ready()) return false;
  }
}

/** A virtual environment with a copy of the SDK and its dependencies installed. */
function makeEnvironment(system, sdk) {
  if (!existsSync(python)) {
    rmSync(venv, { recursive: true, force: true });
    run(system, ["-m", "venv", venv], "python3 -m venv");
  }
  // pip builds in the source folder (build/, *.egg-info): it gets a copy, so the SDK's folder is never written to.
  const copy = join(cache, "firecrawl-py");
  rmSync(copy, { recursive: true, force: true });
  cpSync(sdk, copy, { recursive: true, filter: (from) => !/(__pycache__|\.egg-info|[/\\]build)$/.test(from) });
  run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...QUICK_INDEX, "--force-reinstall", "--no-deps", copy], "pip install of the SDK");
  run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...QUICK_INDEX, copy, ...EXTRAS], "pip install of the SDK's dependencies");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let result;
  try {
    result = prepare();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify(result)}\n`);
  else if (result.skip) {
    process.stderr.write(`${result.skip}\n`);
    process.exit(2);
  } else process.stdout.write(`${result.python}\n`);
}
