// Types for validator-spec.mjs, so the contract package's tests can call it.
export declare function withDiscriminatorHints<T extends object>(spec: T): T;
/** The spec without answers and examples: what it keeps has the spec's shape, what it drops is optional. */
export declare function validatorSpec<T extends object>(spec: T): T;
export declare const answerOnlyComponents: readonly string[];
