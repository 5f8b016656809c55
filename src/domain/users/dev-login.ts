// The development server's password-less login: POST /dev_fetch_api_key gives any account's API
// key from its address, GET /dev_list_users the accounts its login screen offers. The fixture is
// the development organization, so both are on; with --production (or --no-dev-login, that rule
// alone) the mock answers as a production server, which refuses both before looking at the request.
import { badRequest } from '../../errors.js';
import type { User } from '../../store/state.js';
import type { OpenCtx } from '../context.js';
import { authenticationFailed, requireLoginAllowed } from './login.js';
import { isAdmin } from './roles.js';
import { isValidEmail } from './settings-values.js';
import { userByDeliveryEmail } from './access.js';

function requireDevLogin(ctx: OpenCtx): void {
  if (!ctx.server.rules.devLogin) throw badRequest('Endpoint not available in production.');
}

export function devFetchApiKey(ctx: OpenCtx, username: string): { api_key: string; email: string; user_id: number } {
  requireDevLogin(ctx);
  if (!isValidEmail(username)) throw badRequest('Enter a valid email address.');
  const wanted = username.toLowerCase();
  // System bots live in another organization on the real server: not found here. The
  // organization's own bots can log in this way (no password is checked).
  const user = userByDeliveryEmail(ctx.store, wanted, (u) => !u.is_system_bot);
  if (!user) throw authenticationFailed();
  requireLoginAllowed(ctx.store, user);
  return { api_key: user.api_key, email: user.delivery_email, user_id: user.user_id };
}

export function devListUsers(ctx: OpenCtx): { direct_admins: unknown[]; direct_users: unknown[] } {
  requireDevLogin(ctx);
  const url = ctx.store.realm.url;
  const humans = ctx.store.users
    .filter((u) => u.is_active && !u.is_bot)
    .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  // realm_uri before FL 257, realm_url since: the description's levels pick one.
  const entry = (u: User) => ({ email: u.delivery_email, realm_url: url, realm_uri: url });
  return {
    direct_admins: humans.filter(isAdmin).map(entry),
    direct_users: humans.filter((u) => !isAdmin(u)).map(entry),
  };
}
