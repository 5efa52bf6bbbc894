// Types for generate-response-validators.mjs, for the client's and the service's tests.
export interface ValidatorTarget {
  /** An enum marked `x-extensible-enum` is checked for its type only (the client's table). */
  openEnums: boolean;
  /** The module's imports: where `formats` and the table's type come from. */
  imports: string;
}
export declare const clientValidators: ValidatorTarget;
export declare const serviceValidators: ValidatorTarget;
export declare function responseValidatorsModule(spec: object, target?: ValidatorTarget): string;
