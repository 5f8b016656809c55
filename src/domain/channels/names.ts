// Channel and channel-folder names: the checks the real server applies after the description's
// length limit (surrounding whitespace stripped, not empty, no unprintable character).
import { ApiError, badRequest } from '../../errors.js';

/** 1-based position of the first control, surrogate or unassigned character, as the server reports it. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Cn}]/u;

function unprintablePosition(text: string): number | null {
  // One test of the whole text first: most names have no such character, and the test per
  // character (of the code points, for the position) cost a microsecond or two per name.
  if (!UNPRINTABLE.test(text)) return null;
  const chars = Array.from(text);
  const i = chars.findIndex((c) => UNPRINTABLE.test(c));
  return i < 0 ? null : i + 1;
}

/** The stripped channel name, or the server's error. */
export function checkChannelName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw badRequest("Channel name can't be empty.");
  const pos = unprintablePosition(name);
  if (pos !== null) throw badRequest(`Invalid character in channel name, at position ${pos}.`);
  return name;
}

/** Folder names are checked but, as on the real server, stored as given. */
export function checkFolderName(name: string): void {
  if (name.trim() === '') throw badRequest("Channel folder name can't be empty.");
  const pos = unprintablePosition(name);
  if (pos !== null) throw badRequest(`Invalid character in channel folder name, at position ${pos}.`);
}

/** 409: a channel (compared case-insensitively) already has this name. */
export const channelAlreadyExists = (name: string) =>
  new ApiError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`, 409, { channel_name: name });

/** Descriptions are one line: the server turns newlines into spaces. */
export const oneLine = (description: string) => description.replace(/\n/g, ' ');
