import { signOut } from '../lib/accounts/login';
import { emptyRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';

export const handler = endpoint({ schema: emptyRequest, auth: false }, ({ event }) => signOut(event));
