// Types for search-rules.mjs, so the contract package's tests can call the generator on a broken spec.
export declare function searchRules(spec: { components: { schemas: Record<string, unknown> } }): Record<string, unknown>;
export declare function searchRulesModule(spec: { components: { schemas: Record<string, unknown> } }, header: string): string;
