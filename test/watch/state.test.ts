import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SqliteMonitorTables, SqliteStore } from "../../src/store/index.js";
import { workdir } from "../run/helpers.js";

const schedule = { everySeconds: 3600, timezone: "UTC", jitterSeconds: 0, missed: "once" as const, minIntervalSeconds: 60 };

describe("the monitoring tables", () => {
  it("claim a slot once, across connections, moving the monitor's last slot forward only", () => {
    const db = join(workdir(), "m.db");
    const a = new SqliteStore(db);
    const b = new SqliteStore(db);
    try {
      const ta = new SqliteMonitorTables(a.db);
      const tb = new SqliteMonitorTables(b.db);
      const m = ta.upsert({ key: "file:x", source: "file", name: "x", file: "x.yaml", schedule });
      expect(tb.upsert({ key: "file:x", source: "file", name: "x", file: "moved.yaml", schedule })).toMatchObject({ id: m.id, file: "moved.yaml", registeredAt: m.registeredAt });
      const first = ta.claim(m.id, "2026-01-01T11:00:00.000Z", { trigger: "schedule", status: "running", owner: { host: "h", pid: 1 } });
      expect(first).toMatchObject({ status: "running", slot: "2026-01-01T11:00:00.000Z", owner: { host: "h", pid: 1 } });
      expect(tb.claim(m.id, "2026-01-01T11:00:00.000Z", { trigger: "schedule", status: "running" })).toBeUndefined();
      ta.claim(m.id, "2026-01-01T13:00:00.000Z", { trigger: "schedule", status: "skipped_overlap" });
      ta.claim(m.id, "manual:2026-01-01T13:30:00.000Z:abc", { trigger: "manual", status: "running", advance: false });
      expect(tb.byId(m.id)!.lastSlot).toBe("2026-01-01T13:00:00.000Z");
      ta.finishCheck(first!.id, "interrupted", {});
      expect(tb.unfinishedChecks().map((c) => [c.id, c.status])).toEqual([
        [first!.id, "interrupted"],
        [first!.id + 2, "running"],
      ]);
      ta.addNotifications(first!.id, [{ channel: "webhook", target: "https://h.example", event: "monitor.page", sent: false, attempts: 3, error: "HTTP 500", status: 500 }]);
      expect(tb.notifications(first!.id)).toEqual([expect.objectContaining({ channel: "webhook", sent: false, status: 500, attempts: 3, error: "HTTP 500" })]);
      ta.remove(m.id);
      expect(tb.list()).toEqual([]);
      expect(tb.check(first!.id)).toBeDefined();
    } finally {
      a.close();
      b.close();
    }
  });
});
