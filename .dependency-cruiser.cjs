/**
 * The dependency direction of DESIGN.md §2:
 *   cli, server → app → {pipeline, planner, runner, engines, store, changes, credits, schedule, expect} → core → schemas
 * The middle modules do not import each other; nothing imports cli or server.
 */
const MIDDLE = ["pipeline", "planner", "runner", "engines", "store", "changes", "credits", "schedule", "expect"];

/**
 * Rooms: the sub-folders of app, runner, pipeline and store that hold an index.ts. A room's index.ts
 * is its only door: code outside the room imports nothing else of it.
 */
const { existsSync, readdirSync } = require("node:fs");
const { join } = require("node:path");
const ROOMS = ["app", "runner", "pipeline", "store"].flatMap((module) =>
  readdirSync(join(__dirname, "src", module), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(__dirname, "src", module, entry.name, "index.ts")))
    .map((entry) => `${module}/${entry.name}`),
);

const roomRules = ROOMS.map((room) => ({
  name: `${room.replace("/", "-")}-through-its-door`,
  comment: `code outside src/${room} imports it only through src/${room}/index.ts`,
  severity: "error",
  from: { pathNot: `^src/${room}/` },
  to: { path: `^src/${room}/`, pathNot: `^src/${room}/index\\.ts$` },
}));

const middleRules = MIDDLE.map((name) => ({
  name: `${name}-stays-in-its-lane`,
  comment: `src/${name} may import only core (and its own files); it must not reach into another module or upward`,
  severity: "error",
  from: { path: `^src/${name}/` },
  to: { path: `^src/(?!${name}/|core/)[^/]+/` },
}));

module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-depends-on-nothing",
      comment: "src/core holds types, errors and ports; it imports no other module",
      severity: "error",
      from: { path: "^src/core/" },
      to: { path: "^src/(?!core/)[^/]+/" },
    },
    ...middleRules,
    ...roomRules,
    {
      name: "app-does-not-import-frontends",
      severity: "error",
      from: { path: "^src/app/" },
      to: { path: "^src/(cli|server)/" },
    },
    {
      name: "nothing-imports-server",
      severity: "error",
      from: { pathNot: "^src/server/" },
      to: { path: "^src/server/" },
    },
    {
      name: "nothing-imports-cli",
      severity: "error",
      from: { pathNot: "^src/cli/" },
      to: { path: "^src/cli/" },
    },
    {
      name: "cli-goes-through-app",
      comment: "cli reaches the pipeline, engines, store and the rest only through app (and core types)",
      severity: "error",
      from: { path: "^src/cli/" },
      to: { path: "^src/(?!app/|core/|cli/)[^/]+/" },
    },
    {
      name: "server-goes-through-app",
      comment: "server reaches the rest through app (and core types); it mounts the web UI (src/ui) at /ui",
      severity: "error",
      from: { path: "^src/server/" },
      to: { path: "^src/(?!app/|core/|server/|ui/)[^/]+/" },
    },
    {
      name: "ui-goes-through-app",
      comment: "the web UI (src/ui) is a frontend like cli and server: it reads through app (and core types) only",
      severity: "error",
      from: { path: "^src/ui/" },
      to: { path: "^src/(?!app/|core/|ui/)[^/]+/" },
    },
    {
      name: "only-server-mounts-ui",
      comment: "nothing but serve (which mounts it at /ui) imports the web UI; the CLI runs src/ui/main.js as a program",
      severity: "error",
      from: { pathNot: "^src/(ui|server)/" },
      to: { path: "^src/ui/" },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: "agent-stays-in-its-lane",
      comment: "src/agent (the agent's loop, DESIGN.md §10) is pure logic: it may import only core (and its own files)",
      severity: "error",
      from: { path: "^src/agent/" },
      to: { path: "^src/(?!agent/|core/)[^/]+/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.ts$" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".js", ".json"] },
  },
};
