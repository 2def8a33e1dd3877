import { readFileSync } from "node:fs";
import { hostname } from "node:os";

/**
 * The process that is running a run: its host, pid, and a token of when it started (the boot
 * and the process's start time on Linux), so that a pid the system gave to another process since
 * is not mistaken for the owner.
 */
export interface RunOwner {
  host: string;
  pid: number;
  /** `boot id:start time in clock ticks`; null where the system does not say (not Linux). */
  started: string | null;
}

let self: RunOwner | undefined;

/** This process as a run's owner. */
export function currentOwner(): RunOwner {
  self ??= { host: hostname(), pid: process.pid, started: startToken(process.pid) };
  return self;
}

/**
 * Whether the owner is still running: false when its process is gone (or the pid now belongs to
 * a process started later), undefined when this host cannot tell (the run belongs to another host).
 */
export function ownerAlive(owner: RunOwner): boolean | undefined {
  if (owner.host !== hostname()) return undefined;
  if (owner.pid === process.pid) return owner.started === null || owner.started === currentOwner().started;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: a process of another user has the pid; whether it is the owner, its start time tells.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (owner.started === null) return true;
  const started = startToken(owner.pid);
  return started === null || started === owner.started;
}

function startToken(pid: number): string | null {
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces and parentheses); starttime is field 22.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = fields[19];
    return ticks ? `${boot}:${ticks}` : null;
  } catch {
    return null;
  }
}
