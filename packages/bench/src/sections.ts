// Further measurements that report in their own section with their own targets (the cursor deep page,
// the worst-case `in` lists, ...): each is one function here, run against the started service after
// the searches, and printed after the single-client checks. Adding one is adding it to the list.
import type { RunningServer } from './child-process.js';
import { exportSection } from './export-bench.js';
import { handWiredSections } from './hand-wired.js';
import { invoicePdfSection } from './invoice-pdf-bench.js';
import type { Profile } from './profiles.js';
import type { ServerShare } from './server-share.js';
import { startupSection } from './startup-time.js';
import { tracingCostSection } from './tracing-cost.js';

export interface SectionContext {
  profile: Profile;
  /** The benchmark database (PostgreSQL) the service runs on. */
  databaseUrl: string;
  /** The service under test (rate limits raised), and a token of the bench account with every scope. */
  service: RunningServer;
  token: string;
  /** The development key file the service verifies tokens with (to start further services). */
  devKeyFile: string;
  /** Set when the profile shares processes between sections (smoke): pass it to every start. */
  share?: ServerShare;
  log: (line: string) => void;
}

export interface SectionTarget {
  target: string;
  measured: string;
  /** undefined: reported, not a target (printed "n/a"). */
  met: boolean | undefined;
}

export interface ReportSection {
  title: string;
  /** Markdown: tables and sentences, printed as is under the title. */
  body: string;
  targets: SectionTarget[];
}

/** One measurement's section, or several made from the same rounds. */
export type SectionBench = (context: SectionContext) => Promise<ReportSection | ReportSection[]>;

export const extraSections: SectionBench[] = [handWiredSections, startupSection, tracingCostSection, exportSection, invoicePdfSection];
