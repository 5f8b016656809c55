// GET /users/me: the authenticated user (or bot) as the real server describes it.
import type { Ctx } from '../context.js';
import { maxVisibleMessageId } from './max-visible.js';
import { avatarUrl } from './avatar.js';
import { isAdmin, isGuest, isOwner } from './roles.js';
import { listsDeliveryEmails, organizationDisplayEmail } from './email-visibility.js';

export function ownUser(ctx: Ctx): Record<string, unknown> {
  const { store, actor: u } = ctx;
  const maxMessageId = maxVisibleMessageId(store, u);
  const out: Record<string, unknown> = {
    avatar_url: avatarUrl(u),
    avatar_version: u.avatar_version,
    email: u.email,
    full_name: u.full_name,
    is_admin: isAdmin(u),
    is_owner: isOwner(u),
    is_guest: isGuest(u),
    is_bot: u.is_bot,
    role: u.role,
    timezone: u.timezone,
    is_active: u.is_active,
    date_joined: u.date_joined,
    user_id: u.user_id,
    delivery_email: u.delivery_email,
    max_message_id: maxMessageId,
  };
  // Before feature level 163 the organization's email_address_visibility decided: the API email
  // by it, and delivery_email only where it hides addresses and the user's role may see them.
  if (!ctx.supports('email_visibility_per_user')) {
    out.email = organizationDisplayEmail(store.realm, u);
    if (!listsDeliveryEmails(store.realm, u)) delete out.delivery_email;
  }
  if (u.is_bot) {
    out.bot_type = u.bot_type;
    out.bot_owner_id = u.bot_owner_id;
  } else {
    // The fixture defines no custom profile fields, so every person's profile data is empty.
    out.profile_data = {};
  }
  return out;
}
