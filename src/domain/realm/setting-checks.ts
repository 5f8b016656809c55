// The checks of PATCH /realm's settings whose valid values the description cannot list: the call
// provider (the ones this server offers), the organization's Jitsi server (a URL, or `default`)
// and the moderation request channel (an existing private channel), each with the real server's
// wording.
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { VIDEO_CHAT_PROVIDERS } from './server-settings-state.js';

export function checkVideoChatProvider(id: number): number {
  if (!Object.values(VIDEO_CHAT_PROVIDERS).some((p) => p.id === id))
    throw badRequest(`Invalid video_chat_provider ${id}`);
  return id;
}

/** The schemes Django's URLValidator takes (the real server's check). */
const URL_SCHEMES = new Set(['http:', 'https:', 'ftp:', 'ftps:']);
/** A host URLValidator takes: a name with a top-level domain, localhost, or an IP address. */
const HOST =
  /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\]|([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+(xn--[a-z0-9-]+|[a-z]{2,63})\.?)$/i;

function isUrl(text: string): boolean {
  if (/\s/.test(text) || !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return URL_SCHEMES.has(url.protocol) && HOST.test(url.hostname);
  } catch {
    return false;
  }
}

/** The stored jitsi_server_url: null for `default` (the server's own), the URL otherwise. */
export function parseJitsiServerUrl(value: string): string | null {
  if (value === 'default') return null;
  // Not a URL and too long (the description's maxLength) are one error there.
  if (!isUrl(value)) throw badRequest('jitsi_server_url is not an allowed_type');
  return value;
}

/** The stored moderation request channel: null for a negative ID, else an existing private channel. */
export function checkModerationRequestChannel(store: Store, id: number): number | null {
  if (id < 0) return null;
  const stream = store.streams.get(id);
  if (!stream) throw badRequest('Invalid channel ID');
  if (!stream.invite_only) throw badRequest('Moderation request channel must be private.');
  return id;
}
