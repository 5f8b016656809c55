// The control API's outbox views (openapi/control.yaml): read and clear a world's outbox, and
// accept an invitation as the invitee's registration page would, and follow an email change's
// link as the user's browser would.
import type { OpenViewTable, WorldCtx } from '../domain/context.js';
import { outboxOf, type OutboxQuery } from '../domain/outbox/outbox.js';
import { acceptInvitation } from '../domain/invites/accept.js';
import { confirmEmailChange } from '../domain/users/email-change-requests.js';
import type { ControlHost } from './views.js';
import { userByDeliveryEmail, userByEmail } from '../domain/users/access.js';

export function outboxControlViews(host: ControlHost): OpenViewTable {
  return {
    'mock-outbox': (ctx, p) => {
      const store = host.world(ctx.sandbox).store;
      const q: OutboxQuery = { kind: p.kind, device: p.device, since_id: p.since_id, limit: p.limit };
      if (p.user !== undefined) {
        // A user ID, or an address: the account's items (if it is one) and the emails to it.
        if (/^\d+$/.test(p.user)) q.user_id = Number(p.user);
        else {
          q.email = p.user;
          const account = userByDeliveryEmail(store, p.user) ?? userByEmail(store, p.user);
          if (account) q.user_id = account.user_id;
          else q.user_id = -1;
        }
      }
      return outboxOf(store).query(q);
    },
    'mock-clear-outbox': (ctx) => {
      outboxOf(host.world(ctx.sandbox).store).clear();
    },
    'mock-accept-invite': (ctx, p) => {
      // The new account is made at the world's level (there is no API request to take one from).
      const level = host.world(ctx.sandbox).featureLevel ?? host.server.featureLevel;
      return acceptInvitation(worldCtx(host, ctx.sandbox), {
        link: p.link,
        full_name: p.full_name,
        password: p.password,
        email: p.email,
        rules: ctx.server.rules,
        levelHasDefaultAvatarSource: host.hasApiField(level, 'RegisterRealm', 'realm_default_avatar_source'),
        levelHasWelcomeCustomText: host.hasApiField(level, 'RegisterRealm', 'realm_welcome_message_custom_text'),
      });
    },
    'mock-confirm-email-change': (ctx, p) => confirmEmailChange(worldCtx(host, ctx.sandbox), p.link),
  };
}

function worldCtx(host: ControlHost, sandbox: string): WorldCtx {
  const world = host.world(sandbox);
  return { store: world.store, events: world.events, clock: world.clock };
}
