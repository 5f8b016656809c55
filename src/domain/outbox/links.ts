// Confirmation keys and the links built from them, as the real server's confirmation app makes
// them: 24 characters of lowercase base32; an email invitation's link confirms the address
// (/accounts/do_confirm/KEY), a reusable link joins (/join/KEY/), an email change's link makes the
// change (/accounts/confirm_new_email/KEY).
import { randomBytes } from '../../random-pool.js';
import type { Invite } from '../../store/state.js';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 15 random bytes in base32: 24 characters. */
export function newConfirmationKey(): string {
  const bytes = randomBytes(15);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

export function emailChangeLink(siteUrl: string, key: string): string {
  return `${siteUrl}/accounts/confirm_new_email/${key}`;
}

export function inviteLink(siteUrl: string, invite: Invite): string {
  return invite.is_multiuse ? `${siteUrl}/join/${invite.key}/` : `${siteUrl}/accounts/do_confirm/${invite.key}`;
}

/** The confirmation key in a link of any of these forms, or the key itself. */
export function keyOfLink(linkOrKey: string): string {
  const m = /\/(?:join|accounts\/do_confirm|accounts\/confirm_new_email)\/([a-z0-9]+)\/?(?:[?#].*)?$/.exec(
    linkOrKey.trim(),
  );
  return m ? m[1] : linkOrKey.trim();
}
