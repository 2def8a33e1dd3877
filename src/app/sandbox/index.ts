export { type ExecuteResult, runCode } from "./code-sandbox.js";
