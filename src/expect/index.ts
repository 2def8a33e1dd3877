export { expectationJudge, judgeRun, judgeStep } from "./judge.js";
export { valuesAt } from "./fields.js";
