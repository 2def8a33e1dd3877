/**
 * The program the code of a /v2/browser execute runs in: a child process of its own (see
 * code-sandbox.ts), written to a temporary directory and started with Node's permission model
 * (it may read only itself: no other file, no child process, no worker), no environment, code
 * generation from strings refused, and a small heap. Inside it the code runs in a node:vm
 * context holding only `page` (calls bridged over IPC to the session's browser page) and
 * `console`: no require, no import, no process, no fetch.
 */
export const CODE_CHILD_SOURCE = String.raw`"use strict";
const vm = require("node:vm");
const METHODS = JSON.parse(process.argv[2] || "[]");
const waiting = new Map();
let next = 0;

function bridge(method, argsJson) {
  return new Promise((resolve, reject) => {
    const id = ++next;
    waiting.set(id, { resolve, reject });
    process.send({ type: "call", id, method, args: JSON.parse(argsJson) });
  });
}

function write(stream, text) {
  process.send({ type: "log", stream, text: String(text) });
}

const SETUP = '(function (bridge, write, methods) {\n' +
  '  "use strict";\n' +
  '  const show = (v) => { if (typeof v === "string") return v; try { const j = JSON.stringify(v); return j === undefined ? String(v) : j; } catch (e) { return String(v); } };\n' +
  '  const line = (args) => args.map(show).join(" ");\n' +
  '  const page = {};\n' +
  '  for (const m of methods) page[m] = (...args) => bridge(m, JSON.stringify(args));\n' +
  '  page.evaluate = (fn, arg) => bridge("evaluate", JSON.stringify([typeof fn === "function" ? "(" + String(fn) + ")(" + JSON.stringify(arg === undefined ? null : arg) + ")" : fn]));\n' +
  '  const console = { log: (...a) => write("stdout", line(a)), info: (...a) => write("stdout", line(a)), warn: (...a) => write("stderr", line(a)), error: (...a) => write("stderr", line(a)) };\n' +
  '  return { page: Object.freeze(page), console: Object.freeze(console) };\n' +
  '})';

function plain(value) {
  if (value === undefined) return null;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : JSON.parse(text);
  } catch (error) {
    return String(value);
  }
}

function finish(ok, result, error) {
  process.send({ type: "done", ok, result, error }, () => process.exit(ok ? 0 : 1));
}

process.on("message", async (message) => {
  if (message.type === "reply") {
    const entry = waiting.get(message.id);
    if (!entry) return;
    waiting.delete(message.id);
    if (message.ok) entry.resolve(message.value);
    else entry.reject(new Error(message.error));
    return;
  }
  if (message.type !== "run") return;
  try {
    const context = vm.createContext(Object.create(null), { name: "browser session", codeGeneration: { strings: false, wasm: false } });
    const made = new vm.Script(SETUP).runInContext(context)(bridge, write, METHODS);
    context.page = made.page;
    context.console = made.console;
    const script = new vm.Script("(async () => {\n" + message.code + "\n})()", { filename: "code.js", lineOffset: -1 });
    const value = await script.runInContext(context, { timeout: message.timeoutMs, breakOnSigint: false });
    finish(true, plain(value));
  } catch (error) {
    const text = error && typeof error === "object" && "message" in error ? (error.name ? error.name + ": " : "") + error.message : String(error);
    finish(false, null, text);
  }
});
`;
