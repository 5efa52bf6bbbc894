// Types for validator-spec.mjs, so the contract package's tests can call it.
export declare function validatorSpec<T extends object>(spec: T): T;
