// Helpers for the stateful scenarios: the targets that keep state, and the demo data's company
// clients looked up through the API rather than assumed.
import { inject } from 'vitest';
import { expectOk } from '@invoice-api/client';
import type { CompanyClient } from '@invoice-api/contract';
import { clientFor } from './clients.js';
import type { Target } from './targets.js';

export function statefulTargets(): Target[] {
  const targets = inject('contractTargets').filter((target) => target.stateful);
  if (targets.length === 0) throw new Error('no stateful target was started (CONTRACT_TARGET selects proxy, service or stateful-mock)');
  return targets;
}

/**
 * The stateful targets without Prism in front. Prism parses a JSON body before it forwards it and
 * answers malformed JSON itself (`{"error":{"code":"invalid_json"}}`), so scenarios about
 * unparseable bodies can only reach the service directly.
 */
export function directTargets(): Target[] {
  return inject('contractTargets').filter((target) => target.stateful && !target.validatedByPrism);
}

/** The company clients of an account, as the API lists them (ordered by id). */
export async function companyClients(target: Target, accountId = 1): Promise<CompanyClient[]> {
  const api = await clientFor(target, { accountId });
  const { company_clients: clients } = await expectOk(api.listCompanyClients());
  if (clients.length < 2) throw new Error(`account ${accountId} has fewer than 2 company clients: the demo seed changed`);
  return clients;
}

/** Asserts an error answer and narrows it: status, code, and the error body for further checks. */
export function errorOf<R extends { ok: boolean; status: number; error?: unknown }>(result: R): Exclude<R['error'], undefined> {
  if (result.ok) throw new Error(`expected an error answer, got ${result.status}`);
  return result.error as Exclude<R['error'], undefined>;
}
