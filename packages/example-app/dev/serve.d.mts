// Types for serve.mjs, so that the TypeScript tests can import it.
export declare const appRoot: string;

export interface ExampleAppOptions {
  apiBaseUrl: string;
  apiToken: string;
  port?: number;
  host?: string;
  watch?: boolean;
  logLevel?: 'info' | 'warn' | 'error' | 'silent';
  /** `msw`: the generated MSW handlers answer at `apiBaseUrl` from a service worker (VITE_API_MOCK=msw). */
  mock?: 'msw';
}

export interface RunningExampleApp {
  /** The page's origin, e.g. http://127.0.0.1:5173 (what the service's CORS_ORIGINS must list). */
  url: string;
  stop(): Promise<void>;
}

export declare function startExampleApp(options: ExampleAppOptions): Promise<RunningExampleApp>;
