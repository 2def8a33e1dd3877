import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { databasePath, databaseWithoutPassword, redactDatabaseUrl } from "../../src/app/db-path.js";
import { resumeCommand, resumeWords } from "../../src/cli/resume-hint.js";

const URL_WITH_PASSWORD = "postgres://crawler:Sup3r-S3cret@db.internal:5432/pages?sslmode=require";

describe("a database given as a URL", () => {
  it("is recognised as postgres:// or postgresql:// and kept as written; anything else is a file made absolute", () => {
    expect(databasePath(URL_WITH_PASSWORD, {})).toBe(URL_WITH_PASSWORD);
    expect(databasePath("postgresql://h/db", {})).toBe("postgresql://h/db");
    expect(databasePath("postgres.db", {})).toBe(resolve("postgres.db"));
    expect(databasePath("mysql://h/db", {})).toBe(resolve("mysql://h/db"));
  });

  it("comes from SCRAPELINE_DATABASE_URL when --db is not given, before SCRAPELINE_DB", () => {
    expect(databasePath(undefined, { SCRAPELINE_DATABASE_URL: "postgres://h/a", SCRAPELINE_DB: "b.db" })).toBe("postgres://h/a");
    expect(databasePath("c.db", { SCRAPELINE_DATABASE_URL: "postgres://h/a" })).toBe(resolve("c.db"));
    expect(databasePath(undefined, { SCRAPELINE_DATABASE_URL: "", SCRAPELINE_DB: "b.db" })).toBe(resolve("b.db"));
    expect(databasePath(undefined, {})).toBe(resolve("data/scrapeline.db"));
  });

  it("is shown with its password hidden, in the user part or as a parameter; a file path is shown as it is", () => {
    expect(redactDatabaseUrl(URL_WITH_PASSWORD)).toBe("postgres://crawler:***@db.internal:5432/pages?sslmode=require");
    expect(redactDatabaseUrl("postgresql://crawler@h/db?password=Sup3r-S3cret&application_name=x")).toBe("postgresql://crawler@h/db?password=***&application_name=x");
    expect(redactDatabaseUrl("postgres://u:p%40ss@h/db")).toBe("postgres://u:***@h/db");
    expect(redactDatabaseUrl("postgres://u:Sup3r-S3cret@[bad/db")).not.toContain("Sup3r-S3cret");
    expect(redactDatabaseUrl("/data/my:pass@file.db")).toBe("/data/my:pass@file.db");
  });

  it("is kept in a run's resume command without its password (taken from PGPASSWORD or ~/.pgpass then)", () => {
    expect(databaseWithoutPassword(URL_WITH_PASSWORD)).toBe("postgres://crawler@db.internal:5432/pages?sslmode=require");
    const fromFlag = resumeCommand(2, resumeWords({ file: "p.yaml", db: URL_WITH_PASSWORD }, {}));
    const fromEnv = resumeCommand(2, resumeWords({ file: "p.yaml" }, { SCRAPELINE_DATABASE_URL: URL_WITH_PASSWORD }));
    for (const command of [fromFlag, fromEnv]) {
      expect(command).toBe("scrapeline run p.yaml --resume 2 --db 'postgres://crawler@db.internal:5432/pages?sslmode=require'");
      expect(command).not.toContain("Sup3r-S3cret");
    }
  });
});
