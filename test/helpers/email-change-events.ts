// The events a change of a user's address sends (as the real do_change_user_delivery_email sends
// them), expected by both ways a change happens: an administrator's PATCH /users new_email and a
// user's own confirmed change. Written out once so that the two tests hold the same expectation.

import { expect } from 'vitest';

/** `delivery`: to those who may see the real address; `avatar`: the Gravatar that follows it; `apiEmail`: to everyone. */
export function emailChangeEvents(
  userId: number,
  newEmail: string,
  avatar: { avatar_url: unknown; avatar_version: unknown },
) {
  return {
    delivery: { type: 'realm_user', op: 'update', person: { user_id: userId, delivery_email: newEmail } },
    avatar: {
      type: 'realm_user',
      op: 'update',
      person: {
        user_id: userId,
        avatar_source: 'G',
        avatar_url: avatar.avatar_url,
        avatar_url_medium: expect.stringContaining('s=500'),
        avatar_version: avatar.avatar_version,
      },
    },
    apiEmail: { type: 'realm_user', op: 'update', person: { user_id: userId, new_email: newEmail } },
  };
}
