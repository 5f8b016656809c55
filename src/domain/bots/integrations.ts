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

/** One option of an incoming-webhook integration, as register gives it. */
interface WebhookOption {
  key: string;
  label: string;
  validator: 'check_bool' | 'check_string';
}

/**
 * The options of the integrations the mock lists, as the real server's `WEBHOOK_INTEGRATIONS`
 * (zerver/lib/integrations.py) has them. From 403 (behaviour `webhook_url_options`) the URL's
 * optional parameters are `url_options` and no integration has `config_options`; from 318 to 402
 * they were `config_options`, with other labels. Jira has neither.
 */
const OPTIONS: Record<string, { before403: WebhookOption[]; urlOptions: WebhookOption[] }> = {
  github: {
    before403: [
      { key: 'branches', label: 'Filter by branches (comma-separated list)', validator: 'check_string' },
      {
        key: 'ignore_private_repositories',
        label: 'Exclude notifications from private repositories',
        validator: 'check_bool',
      },
    ],
    urlOptions: [
      // The branches preset has no label: the web app draws its own control for it.
      { key: 'branches', label: '', validator: 'check_string' },
      {
        key: 'ignore_private_repositories',
        label: 'Exclude notifications from private repositories',
        validator: 'check_bool',
      },
      {
        key: 'include_repository_name',
        label: 'Include repository name in the notifications',
        validator: 'check_bool',
      },
    ],
  },
  gitlab: { before403: [], urlOptions: [{ key: 'branches', label: '', validator: 'check_string' }] },
  jira: { before403: [], urlOptions: [] },
};

/** The incoming-webhook integrations the mock lists (a few of the server's). */
export const INCOMING_WEBHOOK_INTEGRATIONS = [
  { name: 'github', display_name: 'GitHub' },
  { name: 'gitlab', display_name: 'GitLab' },
  { name: 'jira', display_name: 'Jira' },
];

/**
 * `realm_incoming_webhook_bots`, in every form of the level's side of 403: the response's level
 * keeps `config` (before 318, never any key), `config_options` (from 318) and `url_options` (from 403).
 */
export function incomingWebhookBots(urlOptions: boolean): Record<string, unknown>[] {
  return INCOMING_WEBHOOK_INTEGRATIONS.map((i) => ({
    ...i,
    all_event_types: null,
    config: {},
    config_options: urlOptions ? [] : structuredClone(OPTIONS[i.name].before403),
    url_options: urlOptions ? structuredClone(OPTIONS[i.name].urlOptions) : [],
  }));
}
