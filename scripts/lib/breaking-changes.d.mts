import type { Break } from './spec-diff-core.mjs';

export interface AcceptedException {
  change: string;
  reason: string;
  expires: string;
}
export declare const exceptionsFile: 'openapi/breaking-changes.yaml';
/** `<rule> <JSON path>`: how spec:diff prints a break and how an entry names it. */
export declare function changeName(entry: Break): string;
/** The entries of the exceptions file; throws naming the entry and the fault. */
export declare function parseExceptions(text: string): AcceptedException[];
/** The breaks split by the exceptions on `today` (`YYYY-MM-DD`); an entry holds through its expiry day. */
export declare function applyExceptions(
  breaks: Break[],
  entries: AcceptedException[],
  today: string,
): { breaks: Break[]; accepted: Array<Break & { reason: string; expires: string }>; expired: AcceptedException[]; unused: AcceptedException[] };
