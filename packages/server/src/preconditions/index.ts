// ETag, If-Match and If-None-Match for invoices and deliveries.
export { lockForCondition } from './row-lock.js';
export { assertIfMatch, entityTag, isNotModified, parseIfMatch, parseIfNoneMatch, type IfMatch, type IfNoneMatch } from './entity-tag.js';
export { preconditionHeaders } from './middleware.js';
