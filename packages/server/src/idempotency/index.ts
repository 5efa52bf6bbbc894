// Idempotency-Key (draft-ietf-httpapi-idempotency-key-header) for the create and issue operations.
export { idempotency, idempotencyKeyFormat, type IdempotencyMiddleware, type IdempotencyOptions } from './middleware.js';
export { writeOnce } from './write-once.js';
export { checkKeyPatterns, idempotentOperations, parseIdempotencyKey } from './key.js';
export { requestFingerprint } from './fingerprint.js';
export { findStoredAnswer, purgeExpiredKeys, type IdempotencyClaim } from './store.js';
export { expiredKeyPurger, type ExpiredKeyPurger } from './purge.js';
