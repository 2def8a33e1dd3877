// Passed to the built CLI with --import: when the process exits, writes V8's heap statistics
// (v8.getHeapStatistics(), peak_malloced_memory among them) as JSON to the file named by REPORT_HEAP_TO.
import { writeFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";

process.on("exit", () => writeFileSync(process.env.REPORT_HEAP_TO, JSON.stringify(getHeapStatistics())));
