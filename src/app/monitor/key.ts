/** The key of a pipeline file's monitor: its pipeline's name (one schedule per name and database). */
export const fileMonitorKey = (name: string) => `file:${name}`;

/** The key of a monitor made through serve's /v2/monitor. */
export const apiMonitorKey = (id: string) => `api:${id}`;
