import { POSTGRES_URL_VARIABLE, postgresBinaries, startPostgres } from "../helpers/postgres.js";

/**
 * One PostgreSQL for the whole suite (test/helpers/postgres.ts): each test that needs one makes a
 * fresh database on it. Without PostgreSQL's binaries the PostgreSQL tests skip, saying how to
 * install them; a server given from outside (SCRAPELINE_TEST_POSTGRES_URL) is used as it is.
 */
export default async function startSharedPostgres(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[POSTGRES_URL_VARIABLE]) return undefined;
  if (!postgresBinaries()) return undefined;
  // Installed and failing to start is a failure, not a reason to skip.
  const server = await startPostgres();
  process.env[POSTGRES_URL_VARIABLE] = server.url;
  return async () => {
    delete process.env[POSTGRES_URL_VARIABLE];
    await server.stop();
  };
}
