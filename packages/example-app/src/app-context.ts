// What every view shares: the client, the configuration, and one way to run a call so that each
// failure is shown the same way (the problem panel) and each success may say what it did.
import { createApiClient, type ApiClient } from '@invoice-api/client';
import type { AppConfig } from './config.js';
import { h, render } from './dom.js';
import { problemFromException, problemFromFailure, type Failure, type Problem } from './problems.js';

/** What any operation function of the client answers, seen from a caller that shows every failure alike. */
export type Outcome<T> = { ok: true; data: T } | Failure;

export interface AppContext {
  config: AppConfig;
  api: ApiClient;
  /**
   * Runs one API call for a user's action. Clears the last problem; on failure shows the API's
   * Error (or why there was no answer) and resolves undefined; on success resolves the data.
   */
  run<T>(action: string, call: (api: ApiClient) => Promise<Outcome<T>>): Promise<T | undefined>;
  /** A short line in the status region, e.g. "Delivery LS-000061 issued". */
  announce(text: string): void;
}

export function createAppContext(config: AppConfig, problemPanel: HTMLElement, statusLine: HTMLElement): AppContext {
  const api = createApiClient({
    baseUrl: config.apiBaseUrl,
    // Asked before every request: where a real app would ask its sign-in library for a fresh token.
    getToken: () => config.apiToken,
  });

  function showProblem(problem: Problem | undefined): void {
    problemPanel.hidden = problem === undefined;
    if (problem === undefined) {
      render(problemPanel);
      return;
    }
    render(
      problemPanel,
      h('h2', {}, `${problem.action} failed: ${problem.title}`),
      h('p', { attrs: { class: 'problem-message' } }, problem.message),
      problem.detail && h('p', { attrs: { class: 'problem-detail' } }, problem.detail),
      problem.requestId && h('p', { attrs: { class: 'request-id' } }, `Request id ${problem.requestId}`),
    );
  }

  let pending = 0;
  return {
    config,
    api,
    async run(action, call) {
      showProblem(undefined);
      statusLine.textContent = '';
      pending += 1;
      document.body.setAttribute('aria-busy', 'true');
      try {
        const result = await call(api);
        if (result.ok) return result.data;
        showProblem(problemFromFailure(action, result));
      } catch (thrown) {
        showProblem(problemFromException(action, thrown, config.apiBaseUrl));
      } finally {
        pending -= 1;
        if (pending === 0) document.body.removeAttribute('aria-busy');
      }
      return undefined;
    },
    announce(text) {
      statusLine.textContent = text;
    },
  };
}
