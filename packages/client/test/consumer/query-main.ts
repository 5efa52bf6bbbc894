// The Node entry of the TanStack Query consumer: `node out-node/query-main.js <base URL>` prints its summary as one JSON line.
import { querySummary } from './query.js';

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error('usage: node out-node/query-main.js <base URL>');
console.log(JSON.stringify(await querySummary(baseUrl)));
