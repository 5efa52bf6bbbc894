// The machine a run happened on, printed with every result: figures mean nothing without it.
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import pg from 'pg';

export interface MachineFacts {
  cores: string;
  memory: string;
  cpuModel: string;
  node: string;
  postgres: string;
}

function command(file: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync(file, args, { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

export async function machineFacts(postgresUrl: string): Promise<MachineFacts> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  const version = await client.query<{ server_version: string }>('show server_version').finally(() => client.end());
  const freeLine = command('free', ['-h'])
    ?.split('\n')
    .find((line) => line.startsWith('Mem:'));
  return {
    cores: command('nproc', []) ?? String(cpus().length),
    memory: freeLine === undefined ? `${(totalmem() / 2 ** 30).toFixed(0)} GiB` : `${freeLine.split(/\s+/)[1]} total (free -h)`,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    postgres: `PostgreSQL ${version.rows[0]?.server_version ?? 'unknown'}`,
  };
}
