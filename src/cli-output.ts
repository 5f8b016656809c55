// Text the CLI prints or writes: the credentials table and zuliprc files.
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { Role, type User } from './store/state.js';
import type { ServedCertificate } from './http/tls.js';

/** A role's name by its number, from the one table of roles (Role in store/state.ts). */
const ROLE_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(Role).map(([name, role]) => [role, name]));

function roleName(user: User): string {
  if (user.is_bot) return 'bot';
  return ROLE_NAMES.get(user.role) ?? String(user.role);
}

/**
 * The fixture's active users with role, ID, email and API key, as an aligned table (the ID is what
 * the real server's documentation examples name users by).
 */
export function usersTable(users: readonly User[]): string {
  const rows = users
    .filter((u) => u.is_active)
    .map((u) => [roleName(u), String(u.user_id), u.delivery_email, u.api_key, u.full_name]);
  const header = ['role', 'id', 'email', 'api key', 'name'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** A zuliprc for the user, as the official clients and SDKs read it. */
export function zuliprc(user: User, base: string): string {
  return `[api]\nemail=${user.delivery_email}\nkey=${user.api_key}\nsite=${base}\n`;
}

/**
 * Writes a zuliprc readable by its owner only: it holds an API key, and the official clients
 * refuse a zuliprc that others can read. chmod as well, for a file that existed before.
 */
export function writeZuliprc(file: string, user: User, base: string): void {
  writeFileSync(file, zuliprc(user, base), { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Where --https writes its certificate and key: the current folder, beside the zuliprc. */
const CERT_FILE = 'teamchat-mock-cert.pem';
const KEY_FILE = 'teamchat-mock-key.pem';

/**
 * Writes --https's certificate (for clients to trust) and its key (owner only). Each file is
 * removed first and created anew, exclusively: a planted symlink is not followed, a planted
 * file's mode is not kept.
 */
export function writeCertificate(certificate: ServedCertificate): { cert: string; key: string } {
  for (const [file, text, mode] of [
    [CERT_FILE, certificate.cert, 0o644],
    [KEY_FILE, certificate.key, 0o600],
  ] as const) {
    rmSync(file, { force: true });
    writeFileSync(file, text, { mode, flag: 'wx' });
  }
  return { cert: `./${CERT_FILE}`, key: `./${KEY_FILE}` };
}
