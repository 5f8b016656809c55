// Password strength as the real server judges it (zproject/backends.py check_password_strength):
// shorter than PASSWORD_MIN_LENGTH is weak, the empty password is always weak, and otherwise
// zxcvbn's estimate of the guesses an attacker needs must reach PASSWORD_MIN_GUESSES. The
// development server sets both to 0; a production one to 6 and 10,000.
//
// zxcvbn itself (its dictionaries of words, names and leaked passwords) is not available to the
// mock, so the estimate is an approximation, documented in docs/running.md: the patterns zxcvbn
// rates lowest (one repeated character or block, runs such as "abcdef" or "654321", keyboard
// rows, the most common passwords) get a handful of guesses; any other password counts as ten
// guesses per character position, as zxcvbn's brute-force estimate does. A dictionary word that
// zxcvbn would still refuse ("hamlet1") is accepted here.
import type { ServerRules } from '../server-rules.js';

/** Among the most common passwords of zxcvbn's own list, those of 6 characters or more. */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  'password',
  'password1',
  'passw0rd',
  '12345678',
  '123456789',
  '1234567890',
  'qwerty',
  'qwertyuiop',
  'abc123',
  '111111',
  'iloveyou',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome',
  'monkey',
  'letmein',
  'dragon',
  'shadow',
  'master',
  'superman',
  'trustno1',
  'starwars',
  'whatever',
  'michael',
  'jennifer',
  'charlie',
  'computer',
  'freedom',
  'secret',
]);

const KEYBOARD_ROWS = [
  '`1234567890-=',
  'qwertyuiop[]\\',
  "asdfghjkl;'",
  'zxcvbnm,./',
  '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik,9ol.0p;/',
];

/** One block repeated ("aaaaaa", "abcabc"). */
const isRepeat = (p: string) => /^(.{1,3})\1+$/su.test(p);

/** A run of consecutive code points, up or down ("abcdef", "987654"). */
function isRun(p: string): boolean {
  const codes = [...p].map((c) => c.codePointAt(0)!);
  const step = codes[1] - codes[0];
  return Math.abs(step) === 1 && codes.every((c, i) => i === 0 || c - codes[i - 1] === step);
}

const isKeyboardRow = (p: string) =>
  KEYBOARD_ROWS.some((row) => row.includes(p) || [...row].reverse().join('').includes(p));

/** An approximation of zxcvbn's guesses for a non-empty password (see the header). */
function estimateGuesses(password: string): number {
  const lower = password.toLowerCase();
  const length = [...password].length;
  if (COMMON_PASSWORDS.has(lower) || isRepeat(lower) || (length > 1 && isRun(lower)) || isKeyboardRow(lower))
    return length * 10;
  return 10 ** Math.min(length, 300);
}

/** Whether the server's rules accept the password. */
export function isStrongPassword(password: string, rules: ServerRules): boolean {
  if (password === '' || [...password].length < rules.passwordMinLength) return false;
  return rules.passwordMinGuesses === 0 || estimateGuesses(password) >= rules.passwordMinGuesses;
}
