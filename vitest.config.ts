import { defineConfig } from 'vitest/config';

/**
 * The HTTP suites run a second time at 10.2's level (FL 372), every answer also checked against the
 * real 10.2 description (test/setup/reference-10-2.ts). Chosen for breadth among those that assert
 * no newer behaviour than 372 (a suite written for the newest level would fail there for reasons
 * that are no bug), plus the register-events property test. Every suite that starts its servers
 * through test/helpers/server.ts was tried at 372 (26 November); suites that start none answer the
 * same at every level and are not listed. The second run costs time, so suites that passed but
 * took over ~3.5 s (measured on a loaded 2-core machine) are left out unless they cover something
 * nothing else does; the list after FL372_SUITES says which were left out and why.
 */
const FL372_SUITES = [
  'test/fuzz/register-events.test.ts',
  'test/messages/get-messages.test.ts',
  'test/messages/send.test.ts',
  'test/messages/matches-narrow.test.ts',
  'test/messages/message-history.test.ts',
  'test/subscriptions/subscribe.test.ts',
  'test/subscriptions/subscription-properties.test.ts',
  'test/alert-words/alert-words.test.ts',
  'test/users/update-user.test.ts',
  'test/users/update-user-email.test.ts',
  // Users' addresses by email_address_visibility: the delivery_email / new_email events against 10.2's schemas.
  'test/users/email-visibility.test.ts',
  'test/realm/profile-fields.test.ts',
  'test/realm/update-realm.test.ts',
  'test/bots/bot-avatars.test.ts',
  // The real development organization's IDs, at the level its documentation describes.
  'test/devorg/dev-org.test.ts',
  // Messages around the send path: deletion, flags by narrow, read receipts, who may send,
  // message dicts kept between requests, reactions (10.2's emoji names), drafts, scheduled
  // messages and saved snippets (297).
  'test/messages/delete-message.test.ts',
  'test/messages/flags-narrow-limits.test.ts',
  'test/messages/read-receipts.test.ts',
  'test/messages/send-permissions.test.ts',
  'test/messages/kept-message-dicts.test.ts',
  'test/messages/reactions.test.ts',
  'test/drafts/drafts.test.ts',
  'test/scheduled-messages/scheduled-messages-create.test.ts',
  'test/scheduled-messages/scheduled-messages-list-edit-delete.test.ts',
  'test/saved-snippets/saved-snippets-create.test.ts',
  'test/saved-snippets/saved-snippets-edit.test.ts',
  'test/saved-snippets/saved-snippets-list-delete.test.ts',
  // Channels, subscriptions and topics: topics, subscriber lists, subscription status, archived
  // channels (10.2 leaves them out of GET /users/me/subscriptions), topic visibility.
  'test/channels/get-topics.test.ts',
  'test/channels/subscribers.test.ts',
  'test/subscriptions/subscription-status.test.ts',
  'test/subscriptions/archived-channels.test.ts',
  'test/user-topics/user-topics.test.ts',
  // Users, groups and bots: user objects, statuses, API keys (password and JWT), the email change
  // limit, group membership and subgroups, deactivated groups, embedded bots.
  'test/users/get-users.test.ts',
  'test/users/get-status.test.ts',
  'test/users/status.test.ts',
  'test/users/fetch-api-key.test.ts',
  'test/users/jwt-fetch-api-key.test.ts',
  'test/users/email-change-limit.test.ts',
  'test/groups/members.test.ts',
  'test/groups/list-groups.test.ts',
  'test/groups/deactivate-group.test.ts',
  'test/groups/subgroups.test.ts',
  'test/bots/embedded-bots.test.ts',
  // Uploads and what serves them, custom emoji images, server settings, BigBlueButton links.
  'test/uploads/attachments.test.ts',
  'test/uploads/fixture-uploads.test.ts',
  'test/uploads/inline-images.test.ts',
  'test/uploads/served-files.test.ts',
  'test/uploads/temporary-url.test.ts',
  'test/uploads/upload-file.test.ts',
  'test/uploads/upload-storage.test.ts',
  'test/realm/custom-emoji-images.test.ts',
  'test/realm/server-settings.test.ts',
  'test/calls/bigbluebutton.test.ts',
  // The outbox: emails, the send queue, the legacy push test notification.
  'test/outbox/emails.test.ts',
  'test/outbox/send-queue.test.ts',
  'test/outbox/legacy-test-notification.test.ts',
  // Event queues and whole client runs (zulip-js, the terminal client's start-up).
  'test/events/heartbeat.test.ts',
  'test/clients/zulip-js-search.test.ts',
  'test/clients/zulip-js-uploads.test.ts',
  'test/clients/zulip-js-zuliprc.test.ts',
  'test/clients/zulip-js-terminal-start.test.ts',
  'test/clients/zulip-js-users-channels.test.ts',
];

/*
 * Tried at 372 and left out (26 November), by reason:
 * - They call operations newer than 372 (404 there), on purpose: channels/create-channel,
 *   channel-folder-create-reorder, get-channel-folders, update-channel-folder, stream-email-address
 *   (POST /channels/create 417, folders 389); messages/report (382); reminders/* and
 *   http/realm-url (381); navigation-views/*; push/client-devices, e2ee-test-notification,
 *   register-push-device, remote-register, push-tokens, outbox/e2ee-encryption (406-470);
 *   users/admin-status-bot-key-user-channels, uploads/thumbnail-status, calls/configured-providers,
 *   realm/organization, production/production-rules; security/credentials-walk, control/scenarios
 *   and fuzz/regressions (every operation, the newest included).
 * - They assert fields or rules newer than 372, on purpose: channels/update-stream (group settings
 *   396-441, topics_policy 392, folders), get-channels (subscriber_count 394),
 *   subscriptions/get-subscriptions (folder_id, partial subscribers), events/register and
 *   security/bounds (idle_queue_timeout_secs 481), realm/linkifiers and change-linkifiers (471),
 *   groups/membership (458), update-group (reactivation 386), update-members (391, 496),
 *   users/settings-target-users (444), users/deactivate and channels/first-message-id
 *   (deactivation actions 459), users/deactivate-own, reactivate, bots/bot-services and
 *   manage-bots (bot objects 474), emoji/emoji-names (421), messages/update-message
 *   (prev_content_sha256 379), outbox/outbox-push (E2EE forms 413, 429), presence/update-presence
 *   (419), events/register-sections (474).
 * - They compare levels or test the check itself: levels/levels, events/event-levels,
 *   render/prerendered and http/pipeline (which provokes a broken answer on purpose) fail at 372;
 *   levels/older-levels, levels/reference-10-2 and docs-examples/curl-examples (already run at 372)
 *   pass but would repeat themselves.
 * - The 10.2 description lacks what the real 10.2 server sends, so the check cannot hold them
 *   without an exception nobody has checked against 10.2's code yet: bots/bot-storage (/bot_storage
 *   is routed but undescribed), users/settings (PATCH /settings/display and /settings/notifications,
 *   routed but undescribed), users/dev-login (GET /dev_list_users, development servers only),
 *   bots/manage-bots (POST /users/me/api_key/regenerate), users/own-user (GET /users/me of a bot
 *   carries bot_type and bot_owner_id), clients/zulip-js-events, messages/send-effects and
 *   events/queue (local_message_id in the sender's own message event; queue.test also publishes
 *   made-up event types).
 * - Passed, but their answers do not change with the level (the HTTP edge and the mock's own
 *   surface): http/*, contract/*, control/*, security/*.
 * - Passed, but over ~3.5 s: channels/archive-and-delete-topic, default-streams,
 *   default-stream-groups, clients/zulip-js-messages, zulip-js-session, bots/outgoing-webhooks,
 *   devorg/start-up, exports/exports, groups/create-group, invites/invites, messages/empty-topic-narrow,
 *   flags-narrow, flags-render, muted-users/muted-users, outbox/email-change, outbox-control,
 *   presence/presence-clock, realm/custom-emoji, playgrounds, upload-custom-emoji,
 *   subscriptions/kept-subscription-dicts, subscribe-and-unsubscribe, unsubscribe, typing/typing,
 *   edit-typing, uploads/upload-space, user-topics/muted-topics-event, users/create-user,
 *   own-avatar, own-profile-data.
 * Never tried: test/ui (a browser), test/packaging, test/fuzz/control and test/concurrency.
 */

const shared = {
  // Test files of a worker share its loaded modules: loading the server's few hundred modules
  // again for each of some 260 files was most of the suite's time (about 1 s a file). Tests start
  // servers of their own and keep no state in modules; the contract guard patches once
  // (test/setup/contract-guard.ts).
  isolate: false,
  setupFiles: ['test/setup/native-globals.ts', 'test/setup/contract-guard.ts'],
  // The suite's tests were written against the classic fixture's IDs (Hamlet 4, Iago 2): every
  // server it starts without a fixture, in process or as a child, starts from fixtures/classic.json.
  // Tests of the real default name it (embeddedFixturePath('default')).
  // docs/decisions/default-fixture-is-the-dev-org.md
  env: { TEAMCHAT_MOCK_DEFAULT_FIXTURE: 'classic' },
  testTimeout: 20000,
  hookTimeout: 30000,
};

export default defineConfig({
  test: {
    // The JSON report feeds the totals line that .ci/run prints.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      { test: { ...shared, name: 'newest', include: ['test/**/*.test.ts'] } },
      // The same HTTP suites answered at 10.2's level: every answer is also checked against the
      // real 10.2 description (test/setup/reference-10-2.ts). The list says which, and why.
      { test: { ...shared, name: 'fl372', include: FL372_SUITES, env: { ...shared.env, TEST_FEATURE_LEVEL: '372' } } },
    ],
  },
});
