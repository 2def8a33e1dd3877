/** The code sandbox: the child process a browser session's code runs in. */
export { type ExecuteResult, runCode } from "./code-sandbox.js";
