// Delivery ingest: parse, validate, normalize (docs/protocol.md §10), and the content hash the contract keeps.
export * from './delivery-body';
export { extractConfidence } from './confidence';
export { canonicalJson, contentSha256 } from './content-hash';
export { evidenceCriteriaErrors } from '../../workflows/rules/scoring/evidence';
