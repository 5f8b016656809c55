// Changing one personal setting of one user, with the side effects the real server attaches to
// it: the user_settings event (and the legacy update_display_settings / update_global_notifications
// for queues without user_settings_object), the address's visibility (email-visibility-change.ts), the realm_export_consent event to administrators, the edited-by-self record (for skip_if_already_edited), drafts
// deleted when synchronization is turned off, and the time zone mirrored on the user row.
import type { Ctx } from '../context.js';
import type { User } from '../../store/state.js';
import { activeUserIds, humanAdminIds } from './access.js';
import { LANGUAGES } from './settings-values.js';
import { announceEmailVisibility } from './email-visibility-change.js';
import { EmailVisibility } from './email-visibility.js';
import { legacySettingEvents } from './settings-state.js';

/** Returns whether the value changed. `byUser` is false when an administrator changes it. */
export function changeUserSetting(ctx: Ctx, user: User, name: string, value: unknown, byUser: boolean): boolean {
  const { store } = ctx;
  if (user.settings[name] === value) return false;
  const before = user.settings[name];
  const patch: Partial<User> = { settings: { ...user.settings, [name]: value } };
  if (name === 'timezone') patch.timezone = value as string;
  if (byUser && !user.settings_edited.includes(name)) patch.settings_edited = [...user.settings_edited, name];
  store.users.update(user, patch);

  if (name === 'enable_drafts_synchronization' && value === false) {
    // Drafts stored on the server are deleted; no event is sent for them.
    store.drafts.removeWhere((d) => d.user_id === user.user_id);
  }

  const event: Record<string, unknown> = { type: 'user_settings', op: 'update', property: name, value };
  if (name === 'default_language') event.language_name = LANGUAGES[value as string] ?? value;
  ctx.events.publish([user.user_id], event);
  // (Only for the user's own change: what the real bulk change for other users sends is not checked yet.)
  if (byUser)
    for (const legacy of legacySettingEvents(user, name, value, event.language_name as string | undefined))
      // From FL 439 the legacy event types are gone for every queue.
      ctx.events.publish([user.user_id], legacy, (_q, _u, queue) =>
        queue?.capabilities.user_settings_object || queue?.supports?.('no_legacy_setting_events') ? null : legacy,
      );
  if (name === 'email_address_visibility') {
    announceEmailVisibility(
      ctx,
      store.users.get(user.user_id)!,
      (before as number | undefined) ?? EmailVisibility.everyone,
      value as number,
    );
  }
  if (name === 'timezone') {
    ctx.events.publish(activeUserIds(store), {
      type: 'realm_user',
      op: 'update',
      // The API email too, as the real server's payload has it (the user as stored before the change).
      person: { email: user.email, user_id: user.user_id, timezone: value },
    });
  }
  if (name === 'allow_private_data_export') {
    // Administrators follow consents for data exports (GET /export/realm/consents).
    ctx.events.publish(humanAdminIds(store), { type: 'realm_export_consent', user_id: user.user_id, consented: value });
  }
  return true;
}
