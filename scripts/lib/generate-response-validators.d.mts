// Types for generate-response-validators.mjs, for the client package's tests.
export declare function responseValidatorsModule(spec: object): string;
