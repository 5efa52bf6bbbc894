// What every view shares: the data layer (queries and mutations), the configuration, and one way to
// run a call so that each failure is shown the same way (the problem panel) and each success may say
// what it did.
import { ApiCallError, createApiClient } from '@invoice-api/client';
import type { OperationId } from '@invoice-api/contract';
import type { AppConfig } from './config.js';
import { createAppData, type AppData } from './data.js';
import { h, render } from './dom.js';
import { problemFromException, problemFromFailure, type Problem } from './problems.js';
import { xhrFetch } from './xhr-fetch.js';

export interface AppContext {
  config: AppConfig;
  data: AppData;
  /**
   * Runs one API call for a user's action. Clears the last problem; on failure (the generated
   * options throw the API's Error as an ApiCallError) shows it, or why there was no answer, and
   * resolves undefined; on success resolves the data.
   */
  run<T>(action: string, call: (data: AppData) => Promise<T>): Promise<T | undefined>;
  /** A short line in the status region, e.g. "Delivery LS-000061 issued". */
  announce(text: string): void;
}

/** An ApiCallError carries the API's Error body (every documented error is that one shape); anything else got no such answer. */
function problemOf(action: string, thrown: unknown, apiBaseUrl: string): Problem {
  if (!(thrown instanceof ApiCallError)) return problemFromException(action, thrown, apiBaseUrl);
  const { result }: ApiCallError<OperationId> = thrown;
  return problemFromFailure(action, result);
}

export function createAppContext(config: AppConfig, problemPanel: HTMLElement, statusLine: HTMLElement): AppContext {
  const clientOptions = {
    baseUrl: config.apiBaseUrl,
    // Asked before every request: where a real app would ask its sign-in library for a fresh token.
    getToken: () => config.apiToken,
  };
  const data = createAppData(
    createApiClient(clientOptions),
    // An upload's client: the same API, token and behaviour, over XMLHttpRequest so that the page
    // can show how much has been sent (fetch cannot tell; ./xhr-fetch.ts).
    (onProgress) => createApiClient({ ...clientOptions, fetch: xhrFetch(onProgress) }),
  );

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
    data,
    async run(action, call) {
      showProblem(undefined);
      statusLine.textContent = '';
      pending += 1;
      document.body.setAttribute('aria-busy', 'true');
      try {
        return await call(data);
      } catch (thrown) {
        showProblem(problemOf(action, thrown, config.apiBaseUrl));
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
