// Confidence extraction of seed 002_… (SPEC §10): content.confidence, then content.artifact.confidence,
// then content.artifacts.confidence; the first that is a finite number wins, otherwise it is missing.

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function extractConfidence(content: Record<string, unknown>): number | undefined {
  const { artifact, artifacts } = content;
  return (
    finite(content.confidence) ??
    (isPlainObject(artifact) ? finite(artifact.confidence) : undefined) ??
    (isPlainObject(artifacts) ? finite(artifacts.confidence) : undefined)
  );
}
