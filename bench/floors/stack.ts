// A floor of bench/bundles.ts: the one middleware stack (middy, the logger, settings, the envelope), no route.
export { endpoint } from '../../lib/http/api';
