// Recognising the database errors that are answers, not failures (a unique value already taken).

/** SQLSTATE 23505 on the named constraint; same fields on node-postgres and PGlite errors. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint: violated } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && violated === constraint;
}
