// `pnpm bench -- --profile [scenario]`: the service under one scenario's load with `node --cpu-prof`,
// then the profile's top functions by self time, aggregated by function and by package. This is the
// method behind every "where the time goes" in RESULTS.md: run it, read the top of the list.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface SelfTime {
  name: string;
  ms: number;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  idleMs: number;
  functions: SelfTime[];
  /** The largest packages by self time. */
  packages: SelfTime[];
  /** Every package's self time, for comparing two profiles. */
  allPackages: SelfTime[];
}

/**
 * The main thread's `.cpuprofile` in `directory`: `--cpu-prof` writes one per thread
 * (`CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`), and tsx's module loader has a thread of its own.
 */
export async function mainThreadProfile(directory: string): Promise<string> {
  const files = (await readdir(directory)).filter((file) => /\.\d+\.0\.\d+\.cpuprofile$/.test(file)).sort();
  const last = files[files.length - 1];
  if (last === undefined) throw new Error(`No main-thread .cpuprofile was written to ${directory}`);
  return join(directory, last);
}

const vmNames = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** `express-openapi-validator`, `node:internal`, `server` (our code), ... for a script URL. */
export function packageOf(frame: CallFrame): string {
  if (vmNames.has(frame.functionName) && frame.url === '') return frame.functionName;
  const url = frame.url;
  if (url === '') return '(native)';
  if (url.startsWith('node:')) return 'node (built-in modules)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first, second] = url.slice(modules + '/node_modules/'.length).split('/');
    return first?.startsWith('@') ? `${first}/${second}` : (first ?? url);
  }
  const packages = /\/packages\/([^/]+)\//.exec(url);
  return packages === null ? url : `@invoice-api/${packages[1]}`;
}

function shortLocation(frame: CallFrame): string {
  if (frame.url === '') return '';
  const modules = frame.url.lastIndexOf('/node_modules/');
  const packages = frame.url.indexOf('/packages/');
  const tail = modules >= 0 ? frame.url.slice(modules + '/node_modules/'.length) : packages >= 0 ? frame.url.slice(packages + 1) : frame.url;
  return ` ${tail.replace(/^file:\/\//, '')}:${frame.lineNumber + 1}`;
}

function top(totals: Map<string, number>, count: number): SelfTime[] {
  return [...totals.entries()]
    .map(([name, ms]) => ({ name, ms }))
    .sort((x, y) => y.ms - x.ms)
    .slice(0, count);
}

/** A span of CLOCK_MONOTONIC microseconds (`process.hrtime.bigint() / 1000n`), the clock V8 stamps samples with. */
export interface SampleWindow {
  startUs: number;
  endUs: number;
}

export function monotonicMicroseconds(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Self time by function and by package, of the samples taken inside `window` (all of them without one). */
export async function summariseProfile(file: string, window?: SampleWindow, count = 30): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  let idleMs = 0;
  let totalMs = 0;
  let stamp = profile.startTime;
  // Each sample's delta is the time since the previous one; it is charged to the sampled function.
  for (let index = 0; index < profile.samples.length; index += 1) {
    const node = byId.get(profile.samples[index]!);
    const deltaUs = profile.timeDeltas[index] ?? 0;
    stamp += deltaUs;
    const ms = deltaUs / 1000;
    if (node === undefined) continue;
    if (window !== undefined && (stamp < window.startUs || stamp > window.endUs)) continue;
    totalMs += ms;
    if (node.callFrame.functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    const name = `${node.callFrame.functionName || '(anonymous)'}${shortLocation(node.callFrame)}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    const owner = packageOf(node.callFrame);
    packages.set(owner, (packages.get(owner) ?? 0) + ms);
  }
  return { file, totalMs, idleMs, functions: top(functions, count), packages: top(packages, 15), allPackages: top(packages, packages.size) };
}

export function renderProfileSummary(summary: ProfileSummary, requests: number): string {
  const busyMs = summary.totalMs - summary.idleMs;
  const lines: string[] = [];
  lines.push(`CPU profile: ${summary.file}`);
  lines.push(
    `Sampled ${(summary.totalMs / 1000).toFixed(1)} s of the main thread: idle ${((100 * summary.idleMs) / summary.totalMs).toFixed(0)} %, ` +
      `busy ${(busyMs / 1000).toFixed(2)} s over ${requests} requests = ${(busyMs / Math.max(1, requests)).toFixed(3)} ms of main-thread time per request.`,
  );
  lines.push(
    'V8 samples on the wall clock: time the thread spent descheduled inside a call (a loopback writev wakes its receiver, which may run first) ' +
      'is charged to that call, so on a busy machine syscalls look bigger than their CPU cost. The /proc figure above is the CPU actually used.',
  );
  const table = (title: string, entries: readonly SelfTime[]): void => {
    lines.push('');
    lines.push(`| ${title} | self ms | % of busy |`);
    lines.push('|---|---|---|');
    for (const entry of entries) lines.push(`| ${entry.name.replaceAll('|', '\\|')} | ${entry.ms.toFixed(0)} | ${((100 * entry.ms) / busyMs).toFixed(1)} |`);
  };
  table('function (self time)', summary.functions);
  table('package (self time)', summary.packages);
  return lines.join('\n');
}

/** One package's main-thread CPU per request in two profiles (microseconds). */
export interface PackageDifference {
  name: string;
  serviceUs: number;
  floorUs: number;
}

/**
 * Each package's self time per request in the service's profile and in the floor's (express alone
 * under the same load), largest difference first: where the service's CPU beyond the floor goes.
 */
export function packageDifferences(service: ProfileSummary, serviceRequests: number, floor: ProfileSummary, floorRequests: number): PackageDifference[] {
  const perRequest = (entries: readonly SelfTime[], requests: number): Map<string, number> =>
    new Map(entries.map((entry) => [entry.name, (1000 * entry.ms) / Math.max(1, requests)]));
  const ours = perRequest(service.allPackages, serviceRequests);
  const theirs = perRequest(floor.allPackages, floorRequests);
  return [...new Set([...ours.keys(), ...theirs.keys()])]
    .map((name) => ({ name, serviceUs: ours.get(name) ?? 0, floorUs: theirs.get(name) ?? 0 }))
    .sort((x, y) => y.serviceUs - y.floorUs - (x.serviceUs - x.floorUs));
}

export function renderPackageDifferences(differences: readonly PackageDifference[], floorName: string): string {
  const microseconds = (value: number): string => value.toFixed(1);
  const serviceTotal = differences.reduce((sum, entry) => sum + entry.serviceUs, 0);
  const floorTotal = differences.reduce((sum, entry) => sum + entry.floorUs, 0);
  const extra = serviceTotal - floorTotal;
  const lines = [
    `| package (self time) | service, µs per request | ${floorName}, µs per request | difference | share of the difference |`,
    '|---|---|---|---|---|',
    ...differences.map(
      (entry) =>
        `| ${entry.name.replaceAll('|', '\\|')} | ${microseconds(entry.serviceUs)} | ${microseconds(entry.floorUs)} | ${microseconds(entry.serviceUs - entry.floorUs)} | ${extra > 0 ? `${((100 * (entry.serviceUs - entry.floorUs)) / extra).toFixed(0)} %` : 'n/a'} |`,
    ),
    `| **all** | ${microseconds(serviceTotal)} | ${microseconds(floorTotal)} | ${microseconds(extra)} | 100 % |`,
  ];
  return lines.join('\n');
}
