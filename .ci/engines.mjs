#!/usr/bin/env node
// CI check that `engines` stays honest: every installed package whose own `engines.node` excludes
// the oldest Node this project supports (package.json engines.node) must be named in README.md's
// note on Node versions, so `npm ci`'s EBADENGINE warnings are never a surprise. Exit 1 otherwise.
// Uses the semver package of the installed tree (run after npm ci).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const root = new URL("../", import.meta.url);
const require = createRequire(new URL("package.json", root));
const semver = require("semver");

const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
const lock = JSON.parse(readFileSync(new URL("package-lock.json", root), "utf8"));
const readme = readFileSync(new URL("README.md", root), "utf8");
const floor = semver.minVersion(pkg.engines.node);

const unmet = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  const range = entry.engines?.node;
  if (!path || entry.optional || !range) continue; // optional packages are platform builds npm skips
  if (!semver.satisfies(floor, range)) unmet.push({ name: path.replace(/^.*node_modules\//, ""), version: entry.version, range, dev: !!entry.dev });
}

const unnamed = unmet.filter((p) => !readme.includes(`${p.name}@${p.version}`));
for (const p of unmet) console.log(`${p.name}@${p.version} wants node ${p.range}, engines.node is ${pkg.engines.node}${p.dev ? " (devDependency tree)" : ""}`);
if (unnamed.length > 0) {
  console.error(`engines: README.md does not name ${unnamed.map((p) => `${p.name}@${p.version}`).join(", ")}; pin an older version or add it to the note on Node versions`);
  process.exit(1);
}
if (unmet.some((p) => !p.dev)) {
  console.error("engines: a runtime dependency needs a newer Node than engines.node allows; raise engines.node or pin the dependency");
  process.exit(1);
}
console.log(`engines: node ${pkg.engines.node} holds for every runtime dependency${unmet.length ? "; the devDependencies above are named in README.md" : ""}`);
