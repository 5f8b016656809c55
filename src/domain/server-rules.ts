// The rules in which the real development server (zproject/dev_settings.py) and a production one
// (zproject/default_settings.py) differ in what a client can see. The mock answers as the
// development server by default (the documentation's examples are written against it) and as a
// production server with --production; --no-dev-login turns off the development login alone.

export interface ServerRules {
  /** --production: every rule below as a production server has it. */
  production: boolean;
  /** POST /dev_fetch_api_key, GET /dev_list_users and the `dev` authentication method. */
  devLogin: boolean;
  /** PASSWORD_MIN_LENGTH and PASSWORD_MIN_GUESSES (an empty password is refused either way). */
  passwordMinLength: number;
  passwordMinGuesses: number;
  /** WEB_PUBLIC_STREAMS_ENABLED (the fixture's realm says it in development; off in production). */
  webPublicStreams: boolean;
  /** EMBEDDED_BOTS_ENABLED. */
  embeddedBots: boolean;
  /** INVITES_MIN_USER_AGE_DAYS: how old an account must be to invite (in an organization that has no invite_required). */
  invitesMinUserAgeDays: number;
  /** OPEN_REALM_CREATION: anyone may make an organization, so invitations count against daily limits. */
  openRealmCreation: boolean;
  /** TOPIC_SUMMARIZATION_MODEL set: server_can_summarize_topics. */
  canSummarizeTopics: boolean;
  /** RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS: an undo within it deletes the previous resolve notice. */
  resolveTopicUndoGraceSeconds: number;
  /** DEVELOPMENT: register's development_environment. */
  developmentEnvironment: boolean;
}

const DEVELOPMENT: ServerRules = {
  production: false,
  devLogin: true,
  passwordMinLength: 0,
  passwordMinGuesses: 0,
  webPublicStreams: true,
  embeddedBots: true,
  invitesMinUserAgeDays: 0,
  openRealmCreation: true,
  canSummarizeTopics: true,
  resolveTopicUndoGraceSeconds: 5,
  developmentEnvironment: true,
};

const PRODUCTION: ServerRules = {
  production: true,
  devLogin: false,
  passwordMinLength: 6,
  passwordMinGuesses: 10000,
  webPublicStreams: false,
  embeddedBots: false,
  invitesMinUserAgeDays: 3,
  openRealmCreation: false,
  canSummarizeTopics: false,
  resolveTopicUndoGraceSeconds: 60,
  developmentEnvironment: false,
};

/** The rules of a development or production server; `devLogin: false` (--no-dev-login) changes that rule alone. */
export function serverRules(options: { production?: boolean; devLogin?: boolean } = {}): ServerRules {
  const rules = options.production ? PRODUCTION : DEVELOPMENT;
  return options.devLogin === false ? { ...rules, devLogin: false } : rules;
}
