// Who a process is, precisely enough to tell "that process is still running" from "its pid now
// belongs to someone else": the pid alone is recycled by the kernel, so a lock naming only a pid
// could block a start for ever (a stranger holds the number) or, worse, let a stranger's death
// release a live holder's claim. On Linux, /proc gives the process start time in clock ticks since
// boot, the boot id (which changes on every boot, so a lock from before a power loss is stale
// whatever its pid) and the pid namespace (a container's pids say nothing about the host's). Where
// /proc is missing (macOS), only the pid and the host name are compared.
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';

/** The facts a lock records about the process holding it. */
export interface ProcessIdentity {
  pid: number;
  hostname: string;
  /** `pid:[4026531836]` on Linux: pids are only comparable within one namespace. */
  pidNamespace?: string;
  /** Linux boot id: a different one means the holder died with the previous boot. */
  bootId?: string;
  /** Field 22 of /proc/<pid>/stat: with the pid, it names one process for the life of a boot. */
  startTicks?: string;
  /** Wall-clock start of the process, for people reading the lock (never compared). */
  startedAt: string;
}

export type HolderVerdict =
  /** The recorded process exists on this machine: its claim stands. */
  | 'running'
  /** The recorded process is gone (no such pid, a zombie, a recycled pid, an earlier boot). */
  | 'gone'
  /** Recorded on another host or in another pid namespace: whether it runs cannot be seen from here. */
  | 'elsewhere';

export function currentProcessIdentity(): ProcessIdentity {
  const own = readProcStat('self');
  const pidNamespace = readOptional(() => readlinkSync('/proc/self/ns/pid'));
  const bootId = readBootId();
  return {
    pid: process.pid,
    hostname: hostname(),
    ...(pidNamespace === undefined ? {} : { pidNamespace }),
    ...(bootId === undefined ? {} : { bootId }),
    ...(own === undefined ? {} : { startTicks: own.startTicks }),
    startedAt: new Date(performance.timeOrigin).toISOString(),
  };
}

/** Whether the process a lock names still runs, judged from this process's point of view. */
export function judgeHolder(holder: ProcessIdentity, self: ProcessIdentity = currentProcessIdentity()): HolderVerdict {
  if (holder.hostname !== self.hostname) return 'elsewhere';
  if (holder.pidNamespace !== undefined && self.pidNamespace !== undefined && holder.pidNamespace !== self.pidNamespace) return 'elsewhere';
  if (holder.bootId !== undefined && self.bootId !== undefined && holder.bootId !== self.bootId) return 'gone';
  if (!processExists(holder.pid)) return 'gone';
  const stat = readProcStat(String(holder.pid));
  // No /proc entry to compare with (not Linux, or it exited a moment ago): the pid check stands,
  // erring on the side of refusing rather than of two writers.
  if (stat === undefined) return 'running';
  // A zombie has exited; it only waits for its parent to collect its status.
  if (stat.state === 'Z' || stat.state === 'X') return 'gone';
  if (holder.startTicks !== undefined && stat.startTicks !== holder.startTicks) return 'gone';
  return 'running';
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user; only ESRCH means there is no such process.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function readProcStat(pid: string): { state: string; startTicks: string } | undefined {
  const text = readOptional(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
  if (text === undefined) return undefined;
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses: the
  // fields after the last ')' are plain. They start with field 3 (state); start time is field 22.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTicks = fields[19];
  if (state === undefined || startTicks === undefined || !/^\d+$/.test(startTicks)) return undefined;
  return { state, startTicks };
}

function readBootId(): string | undefined {
  return readOptional(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
}

function readOptional(read: () => string): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
