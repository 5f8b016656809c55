// The integrations the server offers bots: embedded bots it runs itself and incoming webhooks.

/** `realm_embedded_bots`: the bots the server can run itself, with their configuration keys. */
export const EMBEDDED_BOTS = [
  { name: 'converter', config: {} },
  { name: 'encrypt', config: {} },
  { name: 'helloworld', config: {} },
  { name: 'virtual_fs', config: {} },
  { name: 'giphy', config: { key: 'GIPHY API key' } },
  { name: 'followup', config: { stream: 'followup' } },
];

/**
 * `realm_incoming_webhook_bots`: a few of the server's incoming-webhook integrations, in every
 * form at once: the response's level keeps `config` (before 318), `config_options` (from 318),
 * `url_options` (from 403).
 */
export const INCOMING_WEBHOOK_BOTS = [
  { name: 'github', display_name: 'GitHub', all_event_types: null, config: {}, config_options: [], url_options: [] },
  { name: 'gitlab', display_name: 'GitLab', all_event_types: null, config: {}, config_options: [], url_options: [] },
  { name: 'jira', display_name: 'Jira', all_event_types: null, config: {}, config_options: [], url_options: [] },
];
