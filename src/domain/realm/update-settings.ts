// PATCH /realm: an administrator changes organization settings. Every value is checked before
// anything changes, so a request succeeds or fails whole; settings given their current value are
// neither changed nor announced (except as the real server does: org_type always, and the
// settings given by name are always answered, with the number behind the name: the parameter's
// x-enum-values in openapi/paths/realm.yaml). Everyone in the organization hears of each change.
import { ApiError, badRequest } from '../../errors.js';
import { ENUM_VALUES } from '../../contract/generated/params.js';
import type { ParamsOf, WorldCtx } from '../context.js';
import type { GroupSettingValue, User } from '../../store/state.js';
import { isOwner, requireAdmin } from '../users/roles.js';
import { activeUserIds } from '../users/access.js';
import { LANGUAGES } from '../users/settings-values.js';
import { checkGroupSettingValueAllowing, groupSettingForApi, sameGroupSetting } from '../group-settings/values.js';
import {
  ALWAYS_CHANGED,
  CHANNEL_SETTINGS,
  DICT_EVENT_SETTINGS,
  OWNER_ONLY_SETTINGS,
  REALM_GROUP_SETTINGS,
  RETENTION_FOREVER,
  TIME_LIMIT_SETTINGS,
} from './settings-rules.js';
import { settingValue, storeSettings } from './setting-values.js';
import { checkModerationRequestChannel, checkVideoChatProvider, parseJitsiServerUrl } from './setting-checks.js';
import { organizationEmailVisibility } from '../users/email-visibility.js';
import { announceOrganizationEmailVisibility } from '../users/email-visibility-change.js';

/**
 * Settings given by name and answered with the number behind the name, whether or not they
 * changed: the real view compares the parsed enum member with the stored number (never equal),
 * so it always lists the setting, and its JSON encoder writes the member as its value. Only a
 * real change is announced.
 */
const ENUM_ANSWERS = ENUM_VALUES['update-realm'];

const mustBeOwner = () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
const badValue = (name: string, value: unknown) => badRequest(`Bad value for '${name}': ${value}`);

interface GroupSettingUpdate {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

/** A positive number, or `unlimited` (its stored form given). */
function parseLimit(name: string, value: unknown, unlimited: number | null): number | null {
  if (value === 'unlimited') return unlimited;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw badValue(name, value);
}

/** The value to store for one parameter, checked; `undefined` when it changes nothing. */
function plannedValue(world: WorldCtx, name: string, value: unknown): unknown {
  const { store } = world;
  // A fixture may leave the organization's email_address_visibility out: it is then "everyone".
  const current =
    name === 'email_address_visibility' ? organizationEmailVisibility(store.realm) : settingValue(store, name);
  if (Object.hasOwn(REALM_GROUP_SETTINGS, name)) {
    const request = value as GroupSettingUpdate;
    if (request.old !== undefined && !sameGroupSetting(store, request.old, current as GroupSettingValue)) {
      throw badRequest("'old' value does not match the expected value.");
    }
    const next = checkGroupSettingValueAllowing(store, name, REALM_GROUP_SETTINGS[name].allowEveryone, request.new);
    return sameGroupSetting(store, next, current as GroupSettingValue) ? undefined : next;
  }
  let next = value;
  if (TIME_LIMIT_SETTINGS.has(name)) next = parseLimit(name, value, null);
  if (name === 'message_retention_days') next = parseLimit(name, value, RETENTION_FOREVER);
  if (name === 'default_language' && !Object.hasOwn(LANGUAGES, value as string))
    throw badRequest(`Invalid language '${value}'`);
  if (name === 'video_chat_provider') next = checkVideoChatProvider(value as number);
  if (name === 'jitsi_server_url') next = parseJitsiServerUrl(value as string);
  if (name === 'moderation_request_channel_id') next = checkModerationRequestChannel(store, value as number);
  else if (CHANNEL_SETTINGS.has(name)) {
    const id = value as number;
    if (id >= 0 && !store.streams.get(id)) throw badRequest('Invalid channel ID');
    next = id >= 0 ? id : null;
  }
  return next === (current ?? null) && !ALWAYS_CHANGED.has(name) ? undefined : next;
}

/**
 * What else a change stores: topics_policy replaced mandatory_topics (FL 392), and register
 * shows both, each saying whether the empty topic is refused where a channel inherits the rule.
 */
function companions(changes: Record<string, unknown>): Record<string, unknown> {
  if (changes.topics_policy !== undefined) return { mandatory_topics: changes.topics_policy === 'disable_empty_topic' };
  if (changes.mandatory_topics !== undefined)
    return { topics_policy: changes.mandatory_topics ? 'disable_empty_topic' : 'allow_empty_topic' };
  return {};
}

/** The event announcing one changed setting (its value as shownValue gives it). */
function changeEvent(name: string, value: unknown): Record<string, unknown> {
  // topics_policy is announced with the mandatory_topics it replaced beside it.
  if (name === 'topics_policy')
    return {
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { topics_policy: value, mandatory_topics: value === 'disable_empty_topic' },
    };
  const dict = DICT_EVENT_SETTINGS.has(name) || Object.hasOwn(REALM_GROUP_SETTINGS, name);
  return dict
    ? { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } }
    : { type: 'realm', op: 'update', property: name, value };
}

/** What the answer and the events say a setting became. */
function shownValue(world: WorldCtx, name: string, value: unknown): unknown {
  if (Object.hasOwn(REALM_GROUP_SETTINGS, name)) return groupSettingForApi(world.store, value as GroupSettingValue);
  if (CHANNEL_SETTINGS.has(name)) return value ?? -1;
  return value;
}

/** Parameters stored under an older name: the GIF rating kept giphy_rating in the state. */
const STORED_AS: Readonly<Record<string, string>> = { gif_rating_policy: 'giphy_rating' };

/** The name the request used for a stored setting (the answer names it so). */
const requestedName = (input: Record<string, unknown>, stored: string) =>
  Object.keys(STORED_AS).find((given) => STORED_AS[given] === stored && input[given] !== undefined) ?? stored;

export function updateRealmSettings(
  world: WorldCtx,
  actor: User,
  input: ParamsOf<'update-realm'>,
): Record<string, unknown> {
  requireAdmin(actor);
  const requested = Object.entries(input).filter(([, v]) => v !== undefined);
  if (!isOwner(actor) && requested.some(([name]) => OWNER_ONLY_SETTINGS.has(name))) throw mustBeOwner();
  const changes: Record<string, unknown> = {};
  for (const [given, value] of requested) {
    const name = STORED_AS[given] ?? given;
    const next = plannedValue(world, name, value);
    if (next !== undefined) changes[name] = next;
  }
  const answer: Record<string, unknown> = {};
  for (const [name, ids] of Object.entries(ENUM_ANSWERS) as Array<[string, Record<string, number>]>) {
    const given = (input as Record<string, unknown>)[name];
    if (typeof given === 'string') answer[name] = ids[given];
  }
  if (!Object.keys(changes).length) return answer;
  const visibilityBefore = organizationEmailVisibility(world.store.realm);
  storeSettings(world.store, { ...changes, ...companions(changes) });

  const audience = activeUserIds(world.store);
  for (const [name, stored] of Object.entries(changes)) {
    const value = shownValue(world, name, stored);
    // The real server answers "updated" for text settings rather than echo them.
    if (!Object.hasOwn(ENUM_ANSWERS, name))
      answer[requestedName(input, name)] = typeof value === 'string' ? 'updated' : value;
    const event = changeEvent(name, value);
    if (name !== 'giphy_rating') world.events.publish(audience, event);
    else {
      // Renamed gif_rating_policy at FL 453: each queue hears the name of its level.
      const renamed = { ...event, property: 'gif_rating_policy' };
      world.events.publish(audience, renamed, (_q, _u, queue) =>
        queue?.supports?.('gif_rating_policy') === false ? event : renamed,
      );
    }
    if (name === 'email_address_visibility')
      announceOrganizationEmailVisibility(world, visibilityBefore, organizationEmailVisibility(world.store.realm));
  }
  return answer;
}
