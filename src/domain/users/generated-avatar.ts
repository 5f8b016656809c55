// Generated avatars: from FL 456 a new person's avatar follows the organization's
// default_avatar_source, and J (Jdenticon, the development organization's) means an image the
// server draws for the account at its creation and keeps like an uploaded one (served at
// /user_avatars/..., avatar_source J, never null for client_gravatar clients). The mock draws a
// small symmetric identicon of its own (not Jdenticon's algorithm: clients only show the image),
// from the organization's uuid and the user's ID, so the same account gets the same image.
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { randomBytes } from '../../random-pool.js';
import type { User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { settingValue } from '../realm/setting-values.js';

/** Whether a person created now at a level with default_avatar_source (FL 456) gets a drawn avatar. */
export function drawsNewAvatars(store: Store, levelHasSetting: boolean): boolean {
  return levelHasSetting && settingValue(store, 'default_avatar_source') === 'J';
}

const SIZE = 100;
const GRID = 5;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 100x100 RGBA PNG: a 5x5 grid mirrored left to right, one colour, on a transparent ground. */
function identiconPng(seed: Buffer): Buffer {
  const [r, g, b] = [64 + (seed[0] % 160), 64 + (seed[1] % 160), 64 + (seed[2] % 160)];
  const cell = SIZE / GRID;
  const on = (x: number, y: number) => (seed[3 + y * 3 + Math.min(x, GRID - 1 - x)] & 1) === 1;
  const rows = Buffer.alloc(SIZE * (1 + SIZE * 4));
  for (let y = 0; y < SIZE; y++) {
    const row = y * (1 + SIZE * 4); // each row starts with filter type 0
    for (let x = 0; x < SIZE; x++) {
      if (!on(Math.floor(x / cell), Math.floor(y / cell))) continue;
      rows.set([r, g, b, 255], row + 1 + x * 4);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The image drawn for a seed, as base64. An account's image depends on its seed alone, so one
 * drawn before is reused: drawing deflates 40 KB, about a millisecond, and DELETE
 * /users/me/avatar draws again each time. Bounded; the oldest goes first.
 */
const DRAWN = new Map<string, string>();
const MAX_DRAWN = 1024;
function drawnImage(seedText: string): string {
  let image = DRAWN.get(seedText);
  if (image === undefined) {
    if (DRAWN.size >= MAX_DRAWN) DRAWN.delete(DRAWN.keys().next().value!);
    image = identiconPng(createHash('sha256').update(seedText).digest()).toString('base64');
    DRAWN.set(seedText, image);
  }
  return image;
}

/**
 * A new account's row with its drawn avatar (its image kept, a few hundred bytes: no upload quota
 * applies), before the row is inserted, so that everyone hears of the account with it.
 */
export function withDrawnAvatar(store: Store, row: User): User {
  const uuid = String(settingValue(store, 'uuid') ?? store.realm.id);
  const pathId = `${store.realm.id}/${randomBytes(20).toString('hex')}`;
  store.userAvatars.insert({
    path_id: pathId,
    user_id: row.user_id,
    content_type: 'image/png',
    content_base64: drawnImage(`${uuid}:${row.user_id}`),
  });
  return { ...row, avatar_path: pathId, avatar_generated: true };
}
