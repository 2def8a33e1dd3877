export { dueAt, jitterMs, latestSlot, nextSlot, nextSlots } from "./next.js";
export { decide, graceMs, overlapStatus, type Decision } from "./decide.js";
export { formatInZone } from "./format.js";
