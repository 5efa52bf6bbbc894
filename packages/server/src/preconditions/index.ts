// ETag and If-Match for invoices and deliveries.
export { assertIfMatch, entityTag, parseIfMatch, type IfMatch } from './entity-tag.js';
export { ifMatchCondition } from './middleware.js';
