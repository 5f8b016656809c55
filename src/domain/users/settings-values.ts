// The server-side facts the settings checks need that the description cannot state: which
// languages and sounds the server has, which time zones exist, and which settings an
// administrator may not change for other users.
import { badRequest } from '../../errors.js';

/** Language codes the server has translations for, with the names sent in events. */
export const LANGUAGES: Readonly<Record<string, string>> = {
  ar: 'العربيّة',
  bg: 'български',
  bn: 'বাংলা',
  ca: 'català',
  cs: 'čeština',
  cy: 'Cymraeg',
  da: 'dansk',
  de: 'Deutsch',
  el: 'Ελληνικά',
  en: 'English',
  en_GB: 'British English',
  eo: 'Esperanto',
  es: 'español',
  fa: 'فارسی',
  fi: 'suomi',
  fr: 'français',
  gl: 'galego',
  gu: 'ગુજરાતી',
  hi: 'हिंदी',
  hu: 'magyar',
  id: 'Bahasa Indonesia',
  it: 'italiano',
  ja: '日本語',
  ko: '한국어',
  lt: 'lietuvių',
  lv: 'latviešu',
  ml: 'മലയാളം',
  mn: 'монгол',
  nl: 'Nederlands',
  no: 'norsk',
  pl: 'polski',
  pt: 'português',
  pt_BR: 'português (Brasil)',
  pt_PT: 'português (Portugal)',
  ro: 'română',
  ru: 'русский',
  si: 'සිංහල',
  sr: 'српски',
  sv: 'svenska',
  ta: 'தமிழ்',
  te: 'తెలుగు',
  tl: 'Filipino',
  tr: 'Türkçe',
  uk: 'українська',
  uz: 'oʻzbek',
  vi: 'Tiếng Việt',
  'zh-hans': '简体中文',
  'zh-hant': '繁體中文',
};

/** Notification sounds the server ships; "none" turns sounds off. */
export const NOTIFICATION_SOUNDS: ReadonlySet<string> = new Set(['chime', 'ding', 'zulip', 'none']);

/** The real server's minimum password length in its default configuration. */
export const PASSWORD_MIN_LENGTH = 6;

/** Settings only the user may change (the real server's security-sensitive settings). */
export const NOT_FOR_OTHER_USERS: ReadonlySet<string> = new Set([
  'allow_private_data_export',
  'email_address_visibility',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'presence_enabled',
  'send_private_typing_notifications',
  'send_read_receipts',
  'send_stream_typing_notifications',
]);

/** Longest display name the real server accepts, and the characters it refuses in one. */
const MAX_NAME_LENGTH = 100;
const MIN_NAME_LENGTH = 2;
const NAME_INVALID_CHARS = ['*', '`', '\\', '>', '"', '@'];

function isTimeZone(name: string): boolean {
  // Intl also accepts UTC offsets ("+01:00"); the server only knows named zones.
  if (!/^[A-Za-z]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export function checkDefaultLanguage(code: string): void {
  if (!Object.hasOwn(LANGUAGES, code)) throw badRequest('Invalid default_language');
}

export function checkNotificationSound(sound: string): void {
  if (!NOTIFICATION_SOUNDS.has(sound)) throw badRequest(`Invalid notification sound '${sound}'`);
}

export function checkBatchingPeriod(seconds: number): void {
  // At most one week, as on the real server.
  if (seconds <= 0 || seconds > 7 * 24 * 60 * 60) throw badRequest(`Invalid email batching period: ${seconds} seconds`);
}

export function checkTimeZone(name: string): void {
  if (!isTimeZone(name)) throw badRequest('timezone is not a recognized time zone');
}

export function checkPasswordStrength(password: string): void {
  if ([...password].length < PASSWORD_MIN_LENGTH) throw badRequest('New password is too weak!');
}

/** The display name as stored (stripped), or the real server's error. */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) throw badRequest('Name too long!');
  if (length < MIN_NAME_LENGTH) throw badRequest('Name too short!');
  if (NAME_INVALID_CHARS.some((c) => name.includes(c))) throw badRequest('Invalid characters in name!');
  // A name ending in "|<digits>" would read as a mention's user ID.
  if (/\|\d+$/.test(raw)) throw badRequest('Invalid format!');
  return name;
}

/** A plausible address: one @, a local part and a dotted domain, no spaces. */
export function isValidEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

/** Emoji sets a user may choose, and the notification sounds the server ships. */
export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];
