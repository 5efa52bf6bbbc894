import { spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { preparedPostgresDatabase } from './src/dataset/prepare.js';
import { profiles } from './src/profiles.js';
import { benchAccountId, searchScenarios } from './src/scenarios.js';
import { scenarioOnce } from './src/search-bench.js';
import { mintDevToken } from './src/server-modules.js';
import { raisedRateLimits, serviceEntry } from './src/service.js';

const profile = profiles.quick;
const url = await preparedPostgresDatabase('postgres://postgres@127.0.0.1:5432/postgres', 'bench_quick', profile.postgres, () => {});
const devKeyFile = join(tmpdir(), 'pt-key.json');
const token = await mintDevToken({ keyFile: devKeyFile, accountId: benchAccountId, clientId: 'bench', ttlSeconds: 3600 });
const scenario = searchScenarios(profile).find((s) => s.name === 'client_id =')!;
const out = openSync('/tmp/m/pt.log', 'w');
const child = spawn(process.execPath, ['--trace-pretenuring', '--enable-source-maps', serviceEntry], {
  env: { ...process.env, HOST: '127.0.0.1', PORT: '3977', DATABASE_URL: url, DEV_KEY_FILE: devKeyFile, REDIS_URL: '', ...raisedRateLimits },
  stdio: ['ignore', out, out],
});
for (;;) {
  await new Promise((r) => setTimeout(r, 200));
  if (readFileSync('/tmp/m/pt.log', 'utf8').includes('"listening"')) break;
}
console.log('listening');
await scenarioOnce('http://127.0.0.1:3977', token, scenario, 10, { requests: 3000 });
console.log('warmed');
await scenarioOnce('http://127.0.0.1:3977', token, scenario, 10, { requests: 3000 });
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
