/** The PostgreSQL store (node-postgres in a thread of its own): the Store port on a database URL. */
export { PostgresStore, type PostgresStoreOptions } from "./postgres-store.js";
