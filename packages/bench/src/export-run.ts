// `pnpm bench -- --export [--quick|--full]`: the export's sections alone (export-bench.ts), without
// the rest of the run: the data set of the profile on PostgreSQL (loaded, or reused as `pnpm bench`
// left it), the service on it, the export against COPY; then PGlite's data set of the profile and
// the export on the PGlite service. Prints the sections and their targets as the full report does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from './child-process.js';
import { prepareDataset, preparedPostgresDatabase } from './dataset/prepare.js';
import { exportRounds, exportSection, pgliteExportSection } from './export-bench.js';
import type { Profile } from './profiles.js';
import { benchAccountId } from './scenarios.js';
import type { ReportSection } from './sections.js';
import { mintDevToken, openDatabase } from './server-modules.js';
import { raisedRateLimits, startService } from './service.js';
import { markdownTable } from './table.js';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const pgliteServiceEntry = fileURLToPath(new URL('./pglite-service.ts', import.meta.url));

export interface ExportRunOptions {
  profile: Profile;
  postgresServerUrl: string;
  databaseName: string;
  log: (line: string) => void;
}

async function pgliteSection(profile: Profile, devKeyFile: string, token: string, log: (line: string) => void): Promise<ReportSection> {
  // The directory the whole run keeps for the profile (run.ts): loaded once, reused by both.
  const dataDir = join(repositoryRoot, '.data', `bench-pglite-${profile.name}`);
  const database = await openDatabase({ dataDir });
  try {
    await prepareDataset(database, profile.pglite, log);
  } finally {
    await database.close();
  }
  const service = await startServer({
    entry: pgliteServiceEntry,
    env: { BENCH_PGLITE_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', DEV_KEY_FILE: devKeyFile, REDIS_URL: '', ...raisedRateLimits },
  });
  try {
    return await pgliteExportSection(service, token, exportRounds({ profile }), log);
  } finally {
    await service.stop();
  }
}

export async function runExportOnly(options: ExportRunOptions): Promise<string> {
  const { profile, log } = options;
  const keyDirectory = await mkdtemp(join(tmpdir(), 'invoice-bench-export-'));
  const devKeyFile = join(keyDirectory, 'dev-key.json');
  let service: RunningServer | undefined;
  try {
    const url = await preparedPostgresDatabase(options.postgresServerUrl, options.databaseName, profile.postgres, log);
    const token = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench', ttlSeconds: 6 * 3600 });
    service = await startService({ databaseUrl: url, devKeyFile });
    const sections = [await exportSection({ profile, databaseUrl: url, service, token, devKeyFile, log })];
    await service.stop();
    service = undefined;
    log(`PGlite: ${profile.pglite.invoices.toLocaleString('en-US')} invoices`);
    sections.push(await pgliteSection(profile, devKeyFile, token, log));
    const out = [
      `# The CSV export (${profile.name}): ${profile.postgres.invoices.toLocaleString('en-US')} invoices on PostgreSQL, ${profile.pglite.invoices.toLocaleString('en-US')} on PGlite`,
      '',
    ];
    for (const section of sections) out.push(`## ${section.title}`, '', section.body, '');
    out.push('## Targets', '');
    const rows = sections.flatMap((section) =>
      section.targets.map((target) => [target.target, target.measured, target.met === undefined ? 'n/a' : target.met ? 'yes' : 'NO']),
    );
    out.push(markdownTable(['target', 'measured', 'met'], rows));
    return out.join('\n');
  } finally {
    await service?.stop();
    await rm(keyDirectory, { recursive: true, force: true });
  }
}
