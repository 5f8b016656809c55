// A message as the read endpoints show it to one user (GET /messages, GET /messages/{id}): the
// event form (format.ts) with the content in the form the client asked for, the user's flags,
// the edit history, and the empty topic shown by its display name to clients that do not
// handle "".
import type { Store } from '../../store/store.js';
import type { Message } from '../../store/state.js';
import { renameEmpty } from '../events/present.js';
import { messageDict } from './format.js';

export interface ReadOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
  emptyTopicDisplayName: string;
}

function editHistory(message: Message, options: ReadOptions): Record<string, unknown>[] {
  return (message.edit_history ?? []).map((entry) => {
    const out: Record<string, unknown> = { ...entry };
    if (!options.allowEmptyTopicName) renameEmpty(out, ['topic', 'prev_topic'], options.emptyTopicDisplayName);
    return out;
  });
}

export function messageForUser(store: Store, message: Message, flags: string[], options: ReadOptions): Record<string, unknown> {
  const dict = messageDict(store, message);
  const rendered = dict.rendered_content;
  delete dict.rendered_content;
  dict.content = options.applyMarkdown ? rendered : message.content;
  dict.content_type = options.applyMarkdown ? 'text/html' : 'text/x-markdown';
  // Clients that compute Gravatar URLs themselves get null for users without an uploaded avatar.
  if (options.clientGravatar && String(dict.avatar_url).startsWith('https://secure.gravatar.com/')) dict.avatar_url = null;
  if (!options.allowEmptyTopicName && message.type === 'stream') renameEmpty(dict, ['subject'], options.emptyTopicDisplayName);
  if (message.last_moved_timestamp != null) dict.last_moved_timestamp = message.last_moved_timestamp;
  if (message.edit_history?.length) dict.edit_history = editHistory(message, options);
  dict.flags = flags;
  return dict;
}
