// The Node entry: `node out-node/node-main.js <base URL>` prints the summary as one JSON line.
import { summary } from './summary.js';

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error('usage: node out-node/node-main.js <base URL>');
console.log(JSON.stringify(await summary(baseUrl)));
