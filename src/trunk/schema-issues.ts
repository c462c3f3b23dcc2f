import type * as z from 'zod/mini';

/** "tests[3].name: expected string": names the field so the message points at the break. */
export function describeIssues(error: z.core.$ZodError, limit = 3): string {
  const lines = error.issues.slice(0, limit).map((issue) => {
    const path = issue.path.reduce<string>(
      (text, key) =>
        typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key),
      '',
    );
    return `${path || '(body)'}: ${issue.message}`;
  });
  const more = error.issues.length - lines.length;
  return lines.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}
