// Random bytes from the system's source, drawn a block at a time. On the machines the mock runs
// on, each call to the source is a system call costing 5-7 µs however few bytes it returns, and an
// upload, an invitation or a new account each needs a handful. Bytes are copied out of the block
// and never handed out twice, so they are as unpredictable as one call per use would give.
import { randomBytes as systemRandomBytes, randomFillSync } from 'node:crypto';

const BLOCK_BYTES = 4096;
const block = Buffer.allocUnsafe(BLOCK_BYTES);
let used = BLOCK_BYTES;

/** `size` fresh random bytes (a copy the caller owns). */
export function randomBytes(size: number): Buffer {
  if (size > BLOCK_BYTES / 4) return systemRandomBytes(size);
  if (used + size > BLOCK_BYTES) {
    randomFillSync(block);
    used = 0;
  }
  const bytes = Buffer.from(block.subarray(used, used + size));
  // The bytes given out are wiped from the block: nothing later can read them back from it.
  block.fill(0, used, used + size);
  used += size;
  return bytes;
}
