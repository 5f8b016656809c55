// Views of the users operations, by operationId: they map parameters to the actions.
import type { OpenViewTable, View, ViewTable } from '../context.js';
import { deactivateOwnUser, deactivateUser } from './deactivate.js';
import { ownUser } from './own-user.js';
import { requireHuman } from './roles.js';
import { requestedSettings, updateOwnSettings } from './settings.js';
import { updateOthersSettings } from './settings-bulk.js';
import { updateStatus, updateStatusForUser } from './status.js';
import { userChannels } from './user-channels.js';
import { jwtFetchApiKey } from './jwt-login.js';
import { createUser } from './create-user.js';
import { getUserStatus } from './get-status.js';
import { getUser, getUserByEmail, listUsers, type UserViewOptions } from './list-users.js';
import { fetchApiKey } from './login.js';
import { serveAvatar } from './avatar-upload.js';
import { devFetchApiKey, devListUsers } from './dev-login.js';
import { updateUser, updateUserByEmail } from './update-user.js';
import { deleteOwnAvatar, uploadOwnAvatar } from './own-avatar.js';
import { planProfileDataChange, removeOwnProfileData } from './profile-data.js';
import { reactivateUser } from './reactivate.js';

const viewOptions = (params: Record<string, any>): UserViewOptions => ({
  clientGravatar: params.client_gravatar,
  includeCustomProfileFields: params.include_custom_profile_fields,
});

const updateSettings: View = (ctx, params) => {
  requireHuman(ctx.actor);
  const { full_name, email, old_password, new_password, target_users } = params;
  const account = { full_name, email, old_password, new_password };
  const settings = requestedSettings(params);
  if (target_users !== undefined) updateOthersSettings(ctx, account, settings, target_users);
  else updateOwnSettings(ctx, account, settings);
  return {};
};

export const views: ViewTable = {
  'update-settings': updateSettings,
  // Deprecated aliases (merged into PATCH /settings at FL 80): same parameters, same behaviour.
  'update-display-settings': updateSettings,
  'update-notification-settings': updateSettings,
  'update-status': (ctx, params) => updateStatus(ctx, params),
  'update-status-for-user': (ctx, p) =>
    updateStatusForUser(ctx, p.user_id, {
      status_text: p.status_text,
      emoji_name: p.emoji_name,
      emoji_code: p.emoji_code,
      reaction_type: p.reaction_type,
    }),
  'deactivate-user': (ctx, params) => deactivateUser(ctx, params.user_id, params.actions),
  'deactivate-own-user': (ctx) => deactivateOwnUser(ctx),
  'get-own-user': (ctx) => ownUser(ctx),
  'get-users': (ctx, params) => listUsers(ctx, viewOptions(params)),
  'get-user': (ctx, params) => getUser(ctx, params.user_id, viewOptions(params)),
  'get-user-by-email': (ctx, params) => getUserByEmail(ctx, params.email, viewOptions(params)),
  'create-user': (ctx, params) => createUser(ctx, params),
  'get-user-status': (ctx, params) => getUserStatus(ctx, params.user_id),
  'get-user-channels': (ctx, p) => userChannels(ctx, p.user_id),
  'update-user': (ctx, params) => updateUser(ctx, ctx.actor, params),
  'reactivate-user': (ctx, params) => reactivateUser(ctx, ctx.actor, params),
  'update-user-by-email': (ctx, params) => updateUserByEmail(ctx, ctx.actor, params),
  'upload-avatar': (ctx) => uploadOwnAvatar(ctx),
  'delete-avatar': (ctx) => deleteOwnAvatar(ctx),
  'update-profile-data': (ctx, params) => {
    requireHuman(ctx.actor);
    planProfileDataChange(ctx, ctx.actor, ctx.actor, params.data)();
    return {};
  },
  'remove-profile-data': (ctx, params) => {
    requireHuman(ctx.actor);
    removeOwnProfileData(ctx, ctx.actor, params.data);
    return {};
  },
};

/** Operations open to anyone: logging in (with a password, or on the development server without one), uploaded avatars. */
export const openViews: OpenViewTable = {
  'fetch-api-key': (ctx, params) => fetchApiKey(ctx.store, params.username, params.password),
  'dev-fetch-api-key': (ctx, params) => devFetchApiKey(ctx, params.username),
  'jwt-fetch-api-key': (ctx, p) => jwtFetchApiKey(ctx, { token: p.token, include_profile: p.include_profile }),
  'dev-list-users': (ctx) => devListUsers(ctx),
  'get-user-avatar': (ctx, params) =>
    serveAvatar(ctx.store, { realmId: params.realm_id_str, filename: params.filename }),
};
