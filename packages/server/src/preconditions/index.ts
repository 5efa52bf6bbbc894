// ETag and If-Match for invoices and deliveries.
export { lockForCondition } from './row-lock.js';
export { assertIfMatch, entityTag, parseIfMatch, type IfMatch } from './entity-tag.js';
export { ifMatchCondition } from './middleware.js';
