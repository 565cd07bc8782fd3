// Zod issues as `{ field, message }` pairs, the one flattener of the codebase (the API's 400 details,
// the creation rules, the delivery ingest, the evidence check): the field a dotted path
// (`evidence.0.records.2.timestamp`), '' for the value as a whole; an unknown key reported under its
// own name; a union's failure reported from the branch whose shape the input has.
import type { z } from 'zod';

export interface FieldError {
  /** Dotted path of the offending field; '' for the value as a whole. */
  field: string;
  message: string;
}

function joinPath(path: readonly PropertyKey[]): string {
  return path
    .map((p) => String(p))
    .filter((p) => p !== '')
    .join('.');
}

export function fieldErrors(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): FieldError[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const shapeMatches = (branch: z.core.$ZodIssue[]) =>
        !branch.some((i) => i.code === 'invalid_type' && i.path.length === 0);
      return fieldErrors(issue.errors.find(shapeMatches) ?? issue.errors[0]!, path);
    }
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: joinPath([...path, key]), message: 'unknown field' }));
    }
    return [{ field: joinPath(path), message: issue.message }];
  });
}

/** `invalid a, b.c`: the message that names every offending field once. */
export function invalidFieldsMessage(errors: readonly FieldError[]): string {
  return `invalid ${[...new Set(errors.map((e) => e.field || '(body)'))].join(', ')}`;
}

/** A zod error's issues, each field under `prefix` when given (`evidence`). */
export function fieldErrorsFromZod(
  error: { issues: readonly z.core.$ZodIssue[] },
  prefix = '',
): FieldError[] {
  return fieldErrors(error.issues, prefix === '' ? [] : [prefix]);
}
