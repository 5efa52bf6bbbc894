// CPU time of another process, read from the kernel (/proc/<pid>/stat: utime + stime, in clock
// ticks): what the process spent on its cores, whatever the wall clock and the other processes did.
// On a shared machine this is the figure that stays comparable when req/s does not.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

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

/** User + system CPU milliseconds the process `pid` has used so far (threads included), NaN when unreadable. */
export async function processCpuMs(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return Number.NaN;
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) / clockTicksPerSecond()) * 1000;
}
