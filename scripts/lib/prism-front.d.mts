// Types for prism-front.mjs, for the mock's tests.
export interface ByteAnswer {
  mediaType: string;
  /** The spec gives an example, which Prism sends itself in static mode. */
  hasExample: boolean;
}

export interface FrontOperation {
  operationId: string;
  method: string;
  segments: string[];
  /** Per documented status, its byte answers (empty: none). */
  answers: Record<string, ByteAnswer[]>;
}

export declare function byteAnswers(spec: unknown): FrontOperation[];
export declare function needsFront(operations: readonly FrontOperation[]): boolean;
export declare function describeByteAnswers(operations: readonly FrontOperation[]): string;
export declare function startFront(options: {
  operations: readonly FrontOperation[];
  upstream: string;
  host: string;
  port: number;
  dynamic: boolean;
}): Promise<{ url: string; close(): Promise<void> }>;
