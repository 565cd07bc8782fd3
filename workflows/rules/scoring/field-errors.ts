// Zod issues as `{ field, message }` pairs, the field a dotted path (`evidence.0.records.2.timestamp`),
// the same convention as the API's error details. An unknown key is reported under its own name.
import type { z } from 'zod';

export interface FieldError {
  /** Dotted path of the offending field; '' for the value as a whole. */
  field: string;
  message: string;
}

export function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  return [prefix, ...path.map((p) => String(p))].filter((p) => p !== '').join('.');
}

export function fieldErrorsFromZod(error: z.ZodError, prefix = ''): FieldError[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: joinPath(prefix, [...issue.path, key]), message: 'unknown field' }))
      : [{ field: joinPath(prefix, issue.path), message: issue.message }],
  );
}
