// A message as the read endpoints show it to one user (GET /messages, GET /messages/{id}): the
// event form (format.ts) with the content in the form the client asked for, the user's flags,
// the edit history (as much of it as the organization's message_edit_history_visibility_policy
// shows), and the empty topic shown by its display name to clients that do not handle "".
import type { Store } from '../../store/store.js';
import type { Message } from '../../store/state.js';
import { renameEmpty } from './empty-topic.js';
import { messageDict, withOrganizationEmails } from './format.js';
import { EmailVisibility, emailVisibilityOf } from '../users/email-visibility.js';
import type { EditHistoryPolicy } from './edit-history.js';

export interface ReadOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
  emptyTopicDisplayName: string;
  /** The organization's message_edit_history_visibility_policy, as the request's level knows it. */
  editHistoryPolicy: EditHistoryPolicy;
  /** The request's level knows the hide_link_previews flag (510): below it the flag is not shown. */
  hideLinkPreviewsFlag: boolean;
  /**
   * Below feature level 163: addresses by the organization's email_address_visibility
   * (format.ts, withOrganizationEmails), and clientGravatar already off while it hides them (views.ts).
   */
  organizationEmails: boolean;
}

/**
 * The edit history entries the policy shows: under `moves`, content edits are left out, and an
 * edit that also changed the topic keeps only that (one that also changed only the channel goes).
 */
function editHistory(message: Message, options: ReadOptions): Record<string, unknown>[] {
  const entries = (message.edit_history ?? []).filter(
    (entry) =>
      options.editHistoryPolicy !== 'moves' || entry.prev_content === undefined || entry.prev_topic !== undefined,
  );
  return entries.map((entry) => {
    const out: Record<string, unknown> = { ...entry };
    if (options.editHistoryPolicy === 'moves') {
      delete out.prev_content;
      delete out.prev_rendered_content;
    }
    if (!options.allowEmptyTopicName) renameEmpty(out, ['topic', 'prev_topic'], options.emptyTopicDisplayName);
    return out;
  });
}

export function messageForUser(
  store: Store,
  message: Message,
  flags: string[],
  options: ReadOptions,
): Record<string, unknown> {
  const dict = options.organizationEmails
    ? withOrganizationEmails(store, messageDict(store, message))
    : messageDict(store, message);
  const rendered = dict.rendered_content;
  delete dict.rendered_content;
  dict.content = options.applyMarkdown ? rendered : message.content;
  dict.content_type = options.applyMarkdown ? 'text/html' : 'text/x-markdown';
  // Clients that compute Gravatar URLs themselves get null for users without an uploaded avatar,
  // when the sender shows their address to everyone (otherwise the URL cannot be computed);
  // below 163, for every sender (client_gravatar is on only while the organization shows them all).
  if (
    options.clientGravatar &&
    String(dict.avatar_url).startsWith('https://secure.gravatar.com/') &&
    (options.organizationEmails || emailVisibilityOf(store.users.get(message.sender_id)!) === EmailVisibility.everyone)
  )
    dict.avatar_url = null;
  if (!options.allowEmptyTopicName && message.type === 'stream')
    renameEmpty(dict, ['subject'], options.emptyTopicDisplayName);
  if (message.last_moved_timestamp != null) dict.last_moved_timestamp = message.last_moved_timestamp;
  if (message.edit_history?.length && options.editHistoryPolicy !== 'none')
    dict.edit_history = editHistory(message, options);
  dict.flags = options.hideLinkPreviewsFlag ? flags : flags.filter((f) => f !== 'hide_link_previews');
  return dict;
}
