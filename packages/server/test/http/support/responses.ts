// Typed reads of answers, so that tests say which shape they expect rather than poke at `unknown`.
import type { ApiError } from '@invoice-api/contract';

/** The Error object of an error answer (the tests then check it field by field). */
export async function errorBody(response: Response): Promise<ApiError> {
  return (await response.json()) as ApiError;
}
