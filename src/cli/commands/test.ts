import { existsSync, statSync } from "node:fs";
import type { CommandModule } from "yargs";
import { EXIT } from "../exit-codes.js";
import type { Io } from "../output.js";

interface Args {
  dirs: string[];
  update: boolean;
}

export function testCommand(io: Io, setExit: (code: number) => void): CommandModule<object, Args> {
  return {
    command: "test [dirs..]",
    describe: "Replay each pipeline that has a recorded fixture and compare what it extracted with its snapshot",
    builder: (y) =>
      y
        .positional("dirs", { type: "string", array: true, default: ["pipelines"], describe: "directories of pipelines (NAME.yaml with __fixtures__/NAME/ beside it)" })
        .option("update", { type: "boolean", default: false, describe: "write the snapshots anew from the replays" })
        .example("$0 test", "replay pipelines/*.yaml that have a fixture in pipelines/__fixtures__/")
        .example("$0 test --update", "accept what the replays extracted as the new snapshots") as never,
    handler: async (args) => {
      for (const dir of args.dirs) {
        if (!existsSync(dir) || !statSync(dir).isDirectory()) {
          io.stderr(`error: ${dir} is not a directory of pipelines\n`);
          setExit(EXIT.invalid);
          return;
        }
      }
      const { recipesWithFixtures, testRecipes, FIXTURES_DIR } = await import("../../app/index.js");
      if (recipesWithFixtures(args.dirs).length === 0) {
        io.stderr(`error: no pipeline in ${args.dirs.join(", ")} has a fixture (record one: scrapeline run DIR/NAME.yaml --record DIR/${FIXTURES_DIR}/NAME)\n`);
        setExit(EXIT.invalid);
        return;
      }
      const tests = await testRecipes(args.dirs, { update: args.update });
      for (const test of tests) {
        io.stdout(`${test.outcome === "failed" ? "FAIL" : test.outcome === "updated" ? "UPDATED" : "ok"}  ${test.name}  (${test.file})\n`);
        for (const problem of test.problems) io.stdout(`      ${problem.replace(/\n/g, "\n      ")}\n`);
        if (test.diff) io.stdout(`${test.diff}\n`);
      }
      const failed = tests.filter((t) => t.outcome === "failed").length;
      const updated = tests.filter((t) => t.outcome === "updated").length;
      io.stdout(`\n${tests.length - failed} passed, ${failed} failed${updated ? ` (${updated} snapshot${updated === 1 ? "" : "s"} written)` : ""}\n`);
      setExit(failed > 0 ? EXIT.stepFailed : EXIT.ok);
    },
  };
}
