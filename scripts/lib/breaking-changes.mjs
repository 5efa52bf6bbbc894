// The reviewed exceptions of `pnpm spec:diff`: `openapi/breaking-changes.yaml` lists breaking changes a
// team has decided to ship anyway, each with the change as spec:diff prints it (`<rule> <JSON path>`),
// the reason, and an expiry day. A listed change is reported as accepted instead of failing the check;
// an entry past its expiry fails the check (a reviewed exception is for one release, not for ever: the
// file is emptied once the change has shipped); a malformed entry fails with a message naming it.
// Pure: the text in, the verdict out, so that every rule has a fast test with an injected day.
import { parse } from 'yaml';
import { dayToEpochSeconds } from './deprecation.mjs';

export const exceptionsFile = 'openapi/breaking-changes.yaml';

const entryKeys = ['change', 'reason', 'expires'];

/** How spec:diff prints a break, and how an entry names it. */
export function changeName(entry) {
  return `${entry.rule} ${entry.path}`;
}

/**
 * The entries of the exceptions file; throws naming the file, the entry and the fault.
 * @param {string} text the file's YAML
 * @returns {{ change: string, reason: string, expires: string }[]}
 */
export function parseExceptions(text) {
  let document;
  try {
    document = parse(text);
  } catch (error) {
    throw new Error(`${exceptionsFile} is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (document === null || document === undefined) return [];
  const accepted = typeof document === 'object' && !Array.isArray(document) ? document.accepted : undefined;
  if (accepted === null || accepted === undefined) {
    if (typeof document === 'object' && !Array.isArray(document) && Object.keys(document).every((key) => key === 'accepted')) return [];
    throw new Error(`${exceptionsFile} must hold one key, \`accepted\`, a list of { change, reason, expires }`);
  }
  if (!Array.isArray(accepted)) throw new Error(`${exceptionsFile}: \`accepted\` must be a list of { change, reason, expires }`);
  return accepted.map((entry, index) => {
    const where = `${exceptionsFile}: entry ${index + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new Error(`${where} must be a mapping with change, reason and expires`);
    const unknown = Object.keys(entry).filter((key) => !entryKeys.includes(key));
    if (unknown.length > 0) throw new Error(`${where} has unknown key(s) ${unknown.join(', ')}; allowed: ${entryKeys.join(', ')}`);
    const { change, reason, expires } = entry;
    if (typeof change !== 'string' || !/^[a-z][a-z-]* \$\S/.test(change.trim())) {
      throw new Error(`${where}: change must be the change as spec:diff prints it, "<rule> <JSON path>", got ${JSON.stringify(change)}`);
    }
    if (typeof reason !== 'string' || reason.trim() === '') throw new Error(`${where} (${change}): reason must say why the break was accepted`);
    if (dayToEpochSeconds(expires) === undefined) throw new Error(`${where} (${change}): expires must be a YYYY-MM-DD day, got ${JSON.stringify(expires)}`);
    return { change: change.trim(), reason: reason.trim(), expires };
  });
}

/**
 * Splits the breaks by the exceptions, on `today` (a `YYYY-MM-DD` day): an entry holds through its
 * expiry day. `unused`: valid entries no break matches (worth removing, not a failure).
 */
export function applyExceptions(breaks, entries, today) {
  const todayAt = dayToEpochSeconds(today);
  if (todayAt === undefined) throw new Error(`today must be a YYYY-MM-DD day, got ${JSON.stringify(today)}`);
  const expired = entries.filter((entry) => dayToEpochSeconds(entry.expires) < todayAt);
  const valid = entries.filter((entry) => !expired.includes(entry));
  const accepted = [];
  const remaining = [];
  for (const found of breaks) {
    const entry = valid.find((candidate) => candidate.change === changeName(found));
    if (entry === undefined) remaining.push(found);
    else accepted.push({ ...found, reason: entry.reason, expires: entry.expires });
  }
  const unused = valid.filter((entry) => !accepted.some((found) => changeName(found) === entry.change));
  return { breaks: remaining, accepted, expired, unused };
}
