import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/store/index.js";

const dir = mkdtempSync(join(tmpdir(), "scrapeline-owner-"));
let n = 0;

function storeWithRun() {
  const store = new SqliteStore(join(dir, `db-${n++}.db`));
  const run = store.createRun({ pipelineName: "p", pipelineFile: "p.yaml", pipelineHash: "h", planJson: "{}", engine: "local" });
  return { store, id: run.id };
}

describe("the process that owns a run", () => {
  it("is recorded with the run, and a live owner keeps it running", () => {
    const { store, id } = storeWithRun();
    expect(store.getRun(id)).toMatchObject({ status: "running", owner: { pid: process.pid } });
    store.close();
  });

  it("is gone: the run reads interrupted, and resumable", () => {
    const { store, id } = storeWithRun();
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    store.db.prepare("UPDATE runs SET owner_pid = ?, owner_started = NULL WHERE id = ?").run(Number(gone.stdout), id);
    const run = store.getRun(id)!;
    expect(run.status).toBe("interrupted");
    expect(run.error).toContain(`pid ${gone.stdout}`);
    expect(store.latestUnfinishedRun("p")?.id).toBe(id);
    expect(store.listRuns()[0]!.status).toBe("interrupted");
    store.close();
  });

  it("has a pid that another process has now: the start time tells them apart", () => {
    const { store, id } = storeWithRun();
    // This process's pid, as if an earlier process with the same pid had started the run.
    store.db.prepare("UPDATE runs SET owner_started = 'another-boot:1' WHERE id = ?").run(id);
    expect(store.getRun(id)!.status).toBe("interrupted");
    store.close();
  });

  it("runs on another host: nothing is assumed", () => {
    const { store, id } = storeWithRun();
    store.db.prepare("UPDATE runs SET owner_host = 'elsewhere', owner_pid = 999999999 WHERE id = ?").run(id);
    expect(store.getRun(id)!.status).toBe("running");
    store.close();
  });

  it("is taken over by the process that resumes the run", () => {
    const { store, id } = storeWithRun();
    store.db.prepare("UPDATE runs SET owner_pid = 999999999, owner_started = NULL WHERE id = ?").run(id);
    expect(store.getRun(id)!.status).toBe("interrupted");
    store.reopenRun(id);
    expect(store.getRun(id)).toMatchObject({ status: "running", owner: { pid: process.pid } });
    store.close();
  });
});
