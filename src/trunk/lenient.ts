import * as z from 'zod/mini';

/**
 * A display-only field of any Trunk API: missing, null or malformed all read as "not known", so a
 * change on Trunk's side to a field no gate needs never fails the run.
 */
export function lenient<T extends z.core.SomeType>(schema: T) {
  return z.catch(z.optional(z.nullable(schema)), undefined);
}
