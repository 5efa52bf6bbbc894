import type { MediaFacts, OperationFacts } from '../../packages/contract/generated/operations.js';

/** The kind of body a media type carries; throws (naming `where`) on a range or a url-encoded form. */
export declare function mediaKind(mediaType: string, where: string): MediaFacts['kind'];
/** The request body's media types; null when the operation takes no body. */
export declare function requestMedia(spec: unknown, operation: unknown, where: string): OperationFacts['requestMedia'];
/** Each documented status's media types; an empty list is an answer with no body. */
export declare function responseMedia(spec: unknown, operation: unknown, where: string): OperationFacts['responseMedia'];
/** A query parameter's style, explode (OpenAPI's defaults filled in) and the shape of its value. */
export declare function queryStyle(
  spec: unknown,
  parameter: unknown,
  where: string,
): Pick<OperationFacts['queryParams'][number], 'style' | 'explode' | 'shape'>;
