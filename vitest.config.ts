import { defineConfig } from 'vitest/config';

/**
 * The HTTP suites run a second time at 10.2's level (FL 372). Chosen for breadth (messages,
 * channels, subscriptions, events, users, groups, realm, uploads, drafts, presence, push) among
 * those that assert no newer behaviour than 372 (a suite written for the newest level would fail
 * there for reasons that are no bug), plus the register-events property test.
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
];

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
