// CPU time of another process, read from the kernel: what the process spent on its cores, whatever the
// wall clock and the other processes did. On a shared machine this is the figure that stays comparable
// when req/s does not. The scheduler's own account, in nanoseconds, summed over the process's threads
// (/proc/<pid>/task/<tid>/schedstat, first field); where the kernel does not keep it, utime + stime of
// /proc/<pid>/stat, in clock ticks of 10 ms: too coarse for a short measurement of a cheap request (a
// few dozen getInvoice calls use less than one tick), which then reads as no CPU at all.
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

let ticksPerSecond: number | undefined;

function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    let ticks = Number.NaN;
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    } catch {
      // getconf missing: Linux's USER_HZ is 100 on every common build.
    }
    ticksPerSecond = Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
  }
  return ticksPerSecond;
}

/** CPU milliseconds of every live thread of `pid` by the scheduler's account; undefined where it is not kept. */
async function scheduledCpuMs(pid: number): Promise<number | undefined> {
  const threads = await readdir(`/proc/${pid}/task`).catch(() => undefined);
  if (threads === undefined) return undefined;
  let nanoseconds = 0;
  for (const thread of threads) {
    const schedstat = await readFile(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').catch(() => undefined);
    // A thread that ended between the listing and the read has no file left: its time is gone with it.
    if (schedstat === undefined) continue;
    const onCpu = Number(schedstat.split(' ')[0]);
    if (!Number.isFinite(onCpu)) return undefined;
    nanoseconds += onCpu;
  }
  return nanoseconds > 0 ? nanoseconds / 1e6 : undefined;
}

/** User + system CPU milliseconds the process `pid` has used so far (threads included), NaN when unreadable. */
export async function processCpuMs(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const scheduled = await scheduledCpuMs(pid);
  if (scheduled !== undefined) return scheduled;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return Number.NaN;
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) / clockTicksPerSecond()) * 1000;
}
