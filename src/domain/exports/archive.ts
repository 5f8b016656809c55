// The archive of a data export: the organization's data as JSON files in a gzip-compressed tar,
// named after the real server's export files (realm.json, messages-000001.json, attachment.json).
// A public export holds what every member may read: settings, users, public channels with their
// subscribers and messages. A standard export adds private channels and direct messages sent by
// users who consented (allow_private_data_export); a full export without consent (FL 449, where
// the organization has owner_full_content_access) holds every channel and message and everyone's
// settings. Secrets (API keys, passwords) never go in.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Store } from '../../store/store.js';
import type { Message, Stream } from '../../store/state.js';

export const EXPORT_PUBLIC = 1;
export const EXPORT_FULL_WITH_CONSENT = 2;
export const EXPORT_FULL_WITHOUT_CONSENT = 3;

/** The user IDs whose private data a standard export may hold. */
function consentingUserIds(store: Store): Set<number> {
  return new Set(
    store.users.filter((u) => !u.is_bot && u.settings.allow_private_data_export === true).map((u) => u.user_id),
  );
}

/** The channels and messages an export of `type` holds. */
export function exportedContent(store: Store, type: number): { streams: Stream[]; messages: Message[] } {
  if (type === EXPORT_FULL_WITHOUT_CONSENT)
    return { streams: [...store.streams.all()], messages: [...store.messages.all()] };
  const consenting = type === EXPORT_FULL_WITH_CONSENT ? consentingUserIds(store) : new Set<number>();
  const isPublic = (s: Stream) => !s.invite_only;
  const streams = store.streams.filter((s) => isPublic(s) || type === EXPORT_FULL_WITH_CONSENT);
  const publicIds = new Set(store.streams.filter(isPublic).map((s) => s.stream_id));
  const messages = store.messages.filter(
    (m) => (m.stream_id !== null && publicIds.has(m.stream_id)) || consenting.has(m.sender_id),
  );
  return { streams, messages };
}

/** The files of the archive, read now (the request's moment): name → JSON value. */
export function exportFiles(store: Store, type: number): Record<string, unknown> {
  const { streams, messages } = exportedContent(store, type);
  const streamIds = new Set(streams.map((s) => s.stream_id));
  const messageIds = new Set(messages.map((m) => m.id));
  const realm = { ...store.realm };
  delete realm.exports;
  const users = store.users
    .filter((u) => !u.is_system_bot)
    .map((u) => ({
      id: u.user_id,
      email: u.email,
      full_name: u.full_name,
      role: u.role,
      is_bot: u.is_bot,
      bot_type: u.bot_type ?? null,
      bot_owner_id: u.bot_owner_id ?? null,
      is_active: u.is_active,
      date_joined: u.date_joined,
      timezone: u.timezone,
      // Private settings only for those who consented, as the real server's standard export
      // (everyone's in a full export without consent).
      ...(type === EXPORT_FULL_WITHOUT_CONSENT ||
      (type === EXPORT_FULL_WITH_CONSENT && u.settings.allow_private_data_export === true)
        ? { settings: u.settings }
        : {}),
    }));
  return {
    'realm.json': {
      zerver_realm: [realm],
      zerver_userprofile: users,
      zerver_stream: streams,
      zerver_subscription: store.subscriptions.filter((s) => streamIds.has(s.stream_id)),
      zerver_usergroup: store.userGroups.all(),
      zerver_realmemoji: store.realmEmoji.all(),
      zerver_customprofilefield: store.realm.custom_profile_fields ?? [],
    },
    'messages-000001.json': {
      zerver_message: messages.map(({ flags: _flags, ...m }) => m),
    },
    'attachment.json': {
      zerver_attachment: store.attachments
        .filter((a) => a.message_ids.some((id) => messageIds.has(id)))
        .map(({ content_base64: _bytes, ...a }) => a),
    },
  };
}

/** Compressed on libuv's thread pool: a large organization's archive must not stall every other request. */
const gzipAsync = promisify(gzip);

/** The files as a .tar.gz holding one folder, `folder/`. */
export async function tarGz(folder: string, files: Record<string, unknown>, mtimeMs: number): Promise<Buffer> {
  // Loaded on the first export: start-up need not load it.
  const { pack } = await import('tar-stream');
  const tar = pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    tar.on('data', (chunk) => {
      chunks.push(chunk as Buffer);
    });
    tar.on('end', () => resolve());
    tar.on('error', reject);
  });
  const mtime = new Date(mtimeMs);
  tar.entry({ name: `${folder}/`, type: 'directory', mtime });
  for (const [name, value] of Object.entries(files))
    tar.entry({ name: `${folder}/${name}`, mtime }, JSON.stringify(value, null, 2));
  tar.finalize();
  await done;
  return gzipAsync(Buffer.concat(chunks));
}
