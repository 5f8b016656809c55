// Views of the invitation operations (openapi/paths/invites.yaml), by operationId.
import type { ViewTable } from '../context.js';
import { sendInvites } from './send.js';
import { createInviteLink, listInvites, resendEmailInvite, revokeEmailInvite, revokeInviteLink } from './manage.js';

export const views: ViewTable = {
  'get-invites': (ctx) => listInvites(ctx),
  'send-invites': (ctx, p) => {
    sendInvites(ctx, p);
  },
  'create-invite-link': (ctx, p) => createInviteLink(ctx, p),
  'revoke-email-invite': (ctx, p) => {
    revokeEmailInvite(ctx, p.invite_id);
  },
  'revoke-invite-link': (ctx, p) => {
    revokeInviteLink(ctx, p.invite_id);
  },
  'resend-email-invite': (ctx, p) => {
    resendEmailInvite(ctx, p.invite_id);
  },
};
