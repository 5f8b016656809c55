// The welcome bot's direct messages to a new person's account, as the real server sends them once
// the account exists (zerver/lib/onboarding.py, called from process_new_human_user in
// zerver/actions/create_user.py): after the account's channels, the inviter's notice and the
// signup announcement. Bots get none, and neither do accounts carried in by an import or a
// fixture (the mock makes those rows without this path). The first message is starred for the
// new account; from FL 416 a second one carries the organization's custom text (or the
// invitation's), unless that text is empty. POST /realm/test_welcome_bot_custom_message sends the
// second one alone, to the caller.
import type { WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { sendMessage, type SendResult } from '../messages/send.js';
import { settingValue } from './setting-values.js';
import { isAdmin } from '../users/roles.js';

/** org_type values of education organizations (non-profit and for-profit), which get the class guides. */
const EDUCATION_ORG_TYPES: ReadonlySet<unknown> = new Set([30, 35]);

/** The real server's default NAVIGATION_TOUR_VIDEO_URL setting. */
const TOUR_VIDEO_URL = 'https://static.zulipchat.com/static/navigation-tour-video/zulip-10.mp4';

/**
 * The first message's Markdown: a greeting, the getting-started guide (the class guide in an
 * education organization), for administrators the guide to setting the organization up, and the
 * tour video. Paragraphs as the real server's text reads once its single line breaks are joined.
 * (The real server adds a sentence pointing at the organization's onboarding conversations when it
 * has tracked some; the mock's organizations have none.)
 */
function initialContent(world: WorldCtx, user: User): string {
  const education = EDUCATION_ORG_TYPES.has(settingValue(world.store, 'org_type'));
  const guide = education
    ? 'To learn more, check out our [using Zulip for a class guide](/help/using-zulip-for-a-class)!'
    : 'To learn more, check out our [getting started guide](/help/getting-started-with-zulip)!';
  const setup = !isAdmin(user)
    ? ''
    : education
      ? ' We also have a guide for [setting up Zulip for a class](/help/setting-up-zulip-for-a-class).'
      : ' We also have a guide for [moving your organization to Zulip](/help/moving-to-zulip).';
  return [
    'Hello, and welcome to Zulip!👋',
    guide + setup,
    `You can always come back to the [Welcome to Zulip video](${TOUR_VIDEO_URL}) for a quick app overview.`,
  ].join('\n\n');
}

/**
 * The custom message's Markdown: the administrators' text under the line that introduces it.
 * The introducing line is the one the feature's design gave (zulip/zulip#27663); the text itself
 * is what the organization or invitation set.
 */
export function customWelcomeContent(text: string): string {
  return `The administrators for this organization would also like to share the following information:\n\n${text}`;
}

function welcomeBot(world: WorldCtx): User {
  const { store } = world;
  return store.users.get(store.realm.welcome_bot_id ?? -1) ?? store.users.get(store.realm.notification_bot_id)!;
}

/** One direct message from the welcome bot to `to`, through the one send path (read by the bot). */
export function sendWelcomeBotMessage(world: WorldCtx, to: User, content: string): SendResult {
  return sendMessage(world, welcomeBot(world), {
    type: 'private',
    to: [to.user_id],
    content,
    client: 'Internal',
    readBySender: true,
  });
}

export interface WelcomeInput {
  /** Whether the account is made at a level with the custom text (FL 416). */
  levelHasCustomText: boolean;
  /** An invitation's own text (an administrator's); null or absent: the organization's setting. */
  invitationText?: string | null;
}

/** The welcome bot's messages to a new person's account; returns their IDs, the first one first. */
export function sendInitialDirectMessages(world: WorldCtx, user: User, input: WelcomeInput): number[] {
  if (user.is_bot) return [];
  const first = sendWelcomeBotMessage(world, user, initialContent(world, user)).message;
  // The new account finds the greeting among its starred messages (no event: nobody is listening yet).
  const key = String(user.user_id);
  world.store.messages.update(first, { flags: { ...first.flags, [key]: [...(first.flags[key] ?? []), 'starred'] } });
  const ids = [first.id];
  if (!input.levelHasCustomText) return ids;
  const text = input.invitationText ?? String(settingValue(world.store, 'welcome_message_custom_text') ?? '');
  if (text !== '') ids.push(sendWelcomeBotMessage(world, user, customWelcomeContent(text)).message.id);
  return ids;
}
