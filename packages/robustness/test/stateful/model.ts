// What the model holds for one sequence: the account's invoices and deliveries as the API last
// answered them (with their version, from which the ETag follows), the answers stored under
// idempotency keys, the links harvested from answers (the commands' argument sources), where each
// search cursor was made, and each invoice's attachments with the bytes the run sent. A removed
// invoice or delivery is no longer in the maps: every later call that names it expects 404.
import type { components, Delivery, Invoice, OperationId } from '@invoice-api/contract';
import { followLinks, type Exchange, type FollowedLink } from './links.js';
import type { SearchShape, SortValue } from './rules.js';

export interface CompanyClientFacts {
  id: number;
  name: string;
}

/** A link as the model keeps it: what it yields, and the step of the sequence whose answer it came from. */
export interface HarvestedLink extends FollowedLink {
  fromStep: number;
  /** Where that step's request took its values (a `$request.path.x` of the link is read from there). */
  requestSources: Readonly<Record<string, ValueSource>>;
}

export interface StoredAnswer {
  key: string;
  operationId: OperationId;
  method: string;
  path: string;
  /** The request's path values and their sources, to send the same request again. */
  request: PreparedRequest;
  status: number;
  body: unknown;
  location: string | null;
}

/** Where a cursor was made: the search it continues, its last row, and the position after it. */
export interface CursorOrigin {
  shape: SearchShape;
  last: { value: SortValue; id: number };
  nextPosition: number;
}

export type Attachment = components['schemas']['Attachment'];

/** An attachment as the model keeps it: as the API described it, and the bytes that were sent. */
export interface StoredAttachment {
  attachment: Attachment;
  bytes: Uint8Array;
}

export interface Model {
  accountId: number;
  currency: string;
  clients: readonly CompanyClientFacts[];
  /** A company client of the other account: never valid here. */
  foreignClientId: number;
  invoices: Map<number, { invoice: Invoice; version: number }>;
  deliveries: Map<number, { delivery: Delivery; version: number }>;
  /** Per invoice id, its attachments oldest first (an invoice's removal removes them). */
  attachments: Map<number, StoredAttachment[]>;
  answers: StoredAnswer[];
  links: Map<OperationId, HarvestedLink[]>;
  cursors: Map<string, CursorOrigin>;
  nextInvoiceNumber: number;
  nextDeliveryNumber: number;
  /** Idempotency keys are unique per sequence: the counter makes the next one. */
  keyCounter: number;
}

/** Where a value of a request came from, so the replay script can compute it as the run did. */
export type ValueSource =
  | { kind: 'answer'; step: number; expression: string }
  | { kind: 'client'; index: number }
  | { kind: 'foreign-client' }
  | { kind: 'entity-tag'; step: number; expression: string; version: number };

/** One part of a `multipart/form-data` body: a text field, or a file with its name and declared type. */
export type FormPart = { name: string; value: string } | { name: string; fileName: string; mediaType: string; bytes: Uint8Array };

/** A request ready to send, with the source of each value taken from an earlier answer or the fixture. */
export interface PreparedRequest {
  operationId: OperationId;
  actor: 'mine' | 'theirs';
  method: string;
  /** The path template and its values. */
  template: string;
  pathValues: Record<string, number>;
  headers: Record<string, string>;
  /** How the body is sent: JSON (the default), or `multipart/form-data` (then `body` is a FormPart[]). */
  bodyKind?: 'json' | 'multipart';
  body: unknown;
  /** `path.invoice_id`, `header.If-Match`, `body/items/0/item_id`... -> where the value came from. */
  sources: Record<string, ValueSource>;
}

export function entityTag(id: number, version: number): string {
  return `"${id}-${version}"`;
}

export function pathOf(request: Pick<PreparedRequest, 'template' | 'pathValues'>): string {
  return request.template.replace(/\{(\w+)\}/g, (_match, name: string) => String(request.pathValues[name]));
}

/** Adds the links an answer offers to the model's argument sources. */
export function harvest(model: Model, exchange: Exchange, step: number, requestSources: Readonly<Record<string, ValueSource>>): void {
  for (const link of followLinks(exchange)) {
    const pool = model.links.get(link.operationId) ?? [];
    pool.push({ ...link, fromStep: step, requestSources });
    model.links.set(link.operationId, pool);
  }
}

/** The links of one target operation, optionally only those of some link names. */
export function linksTo(model: Readonly<Model>, operationId: OperationId, names?: readonly string[]): HarvestedLink[] {
  const pool = model.links.get(operationId) ?? [];
  return names === undefined ? pool : pool.filter((link) => names.includes(link.name));
}

export function sourcesOf(link: HarvestedLink): Record<string, ValueSource> {
  const sources: Record<string, ValueSource> = {};
  for (const [name, expression] of Object.entries(link.sources)) {
    const key = name.startsWith('body') ? name : name.includes('.') ? name : `path.${name}`;
    if (expression.startsWith('$response.')) sources[key] = { kind: 'answer', step: link.fromStep, expression };
    const requestPath = /^\$request\.path\.(\w+)$/.exec(expression)?.[1];
    const fromRequest = requestPath === undefined ? undefined : link.requestSources[`path.${requestPath}`];
    if (fromRequest !== undefined) sources[key] = fromRequest;
  }
  return sources;
}
