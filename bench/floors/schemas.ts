// A floor of bench/bundles.ts: zod with the project's shared schema pieces, which every route's schema uses.
export * as bounds from '../../lib/bounds';
export * as schema from '../../lib/schema';
