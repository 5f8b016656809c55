// The group settings part of PATCH /streams/{id}: each parameter is {new, old?}. A stale `old`
// is rejected, an unchanged value is skipped, and most settings need content access to the
// channel (not only the right to administer it).
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { GroupSettingValue, Stream } from '../../store/state.js';
import { metadataAudience } from './audience.js';
import { CHANNEL_GROUP_SETTINGS, CHANNEL_GROUP_SETTING_NAMES, checkGroupSettingValue } from './group-settings.js';
import { groupSettingForApi, normalizeGroupSetting, sameGroupSetting } from '../group-settings/values.js';
import type { Change } from './update-privacy.js';
import { checkCanSetDeleteMessagePolicy } from './realm-permissions.js';

/** The channel's deletion permissions, which need can_set_delete_message_policy_group (FL 407). */
const DELETE_POLICY_SETTINGS: ReadonlySet<string> = new Set([
  'can_delete_any_message_group',
  'can_delete_own_message_group',
]);

interface GroupSettingUpdate {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

export function planGroupSettingChanges(
  ctx: Ctx,
  stream: Stream,
  p: Record<string, unknown>,
  contentAccess: boolean,
): Change[] {
  const { store } = ctx;
  const changes: Change[] = [];
  for (const setting of CHANNEL_GROUP_SETTING_NAMES) {
    const request = p[setting] as GroupSettingUpdate | undefined;
    if (!request) continue;
    const current = stream[setting];
    if (request.old !== undefined && !sameGroupSetting(store, request.old, current)) {
      throw badRequest("'old' value does not match the expected value.");
    }
    if (sameGroupSetting(store, normalizeGroupSetting(store, request.new), current)) continue;
    if (CHANNEL_GROUP_SETTINGS[setting].needsContentAccess && !contentAccess) {
      throw badRequest('Channel content access is required.');
    }
    if (DELETE_POLICY_SETTINGS.has(setting)) checkCanSetDeleteMessagePolicy(store, ctx.actor);
    const value = checkGroupSettingValue(store, setting, request.new);
    changes.push(() => {
      store.streams.update(stream, { [setting]: value });
      ctx.events.publish(metadataAudience(store, stream), {
        type: 'stream',
        op: 'update',
        property: setting,
        value: groupSettingForApi(store, value),
        stream_id: stream.stream_id,
        name: stream.name,
      });
    });
  }
  return changes;
}
