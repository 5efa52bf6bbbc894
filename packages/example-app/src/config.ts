// Where the API is and which token to send, from the build's environment (Vite's VITE_* variables).
// The token is for development only: against the mock any string works, against the service one from
// `pnpm --silent token`. A real app gets its token from its sign-in flow and passes a `getToken`.

export interface AppConfig {
  /** The API's base URL, e.g. http://127.0.0.1:4010 (the mock) or http://127.0.0.1:3000 (the service). */
  apiBaseUrl: string;
  /** A bearer token; empty sends none (the API then answers 401, which the app shows). */
  apiToken: string;
  /** `msw`: the generated MSW handlers answer at `apiBaseUrl` from a service worker (VITE_API_MOCK=msw). */
  mock: 'msw' | undefined;
}

export const mockBaseUrl = 'http://127.0.0.1:4010';

/** The token sent in MSW mode when none is configured: the handlers, like the mock, take any bearer token. */
export const mswDevToken = 'msw-dev-token';

export function readConfig(env: Record<string, string | boolean | undefined>): AppConfig {
  const baseUrl = typeof env.VITE_API_BASE_URL === 'string' && env.VITE_API_BASE_URL.trim() !== '' ? env.VITE_API_BASE_URL.trim() : mockBaseUrl;
  const mock = env.VITE_API_MOCK === 'msw' ? 'msw' : undefined;
  const token = typeof env.VITE_API_TOKEN === 'string' ? env.VITE_API_TOKEN.trim() : '';
  return {
    apiBaseUrl: baseUrl.replace(/\/+$/, ''),
    apiToken: token === '' && mock === 'msw' ? mswDevToken : token,
    mock,
  };
}
