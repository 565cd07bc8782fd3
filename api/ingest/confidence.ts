// Confidence extraction (docs/scoring.md §5): content.confidence, then content.artifact.confidence,
// then content.artifacts.confidence; the first that is a finite number wins, otherwise it is missing.

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The extracted confidence and where in the content it was found (`artifact.confidence`, …). */
export function locateConfidence(
  content: Record<string, unknown>,
): { value: number; field: string } | undefined {
  for (const holder of [undefined, 'artifact', 'artifacts'] as const) {
    const from = holder === undefined ? content : content[holder];
    const value = isPlainObject(from) ? finite(from.confidence) : undefined;
    if (value !== undefined)
      return { value, field: holder === undefined ? 'confidence' : `${holder}.confidence` };
  }
  return undefined;
}

export function extractConfidence(content: Record<string, unknown>): number | undefined {
  return locateConfidence(content)?.value;
}
