import { logIn } from '../lib/accounts/login';
import { loginRequest } from '../lib/accounts/schemas';
import { endpoint } from '../lib/http/api';

export const handler = endpoint(
  { schema: loginRequest, auth: false, form: true, checkMime: false },
  ({ event, input }) => logIn(event, input),
);
