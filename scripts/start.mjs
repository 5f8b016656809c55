// `npm start`: builds dist/ only when a source changed since the last build, then runs the
// compiled CLI in this same process (one node start, not two: the first answer comes sooner).
import { buildIfChanged } from './build.mjs';

try {
  await buildIfChanged();
} catch (err) {
  console.error(`teamchat-mock: build failed: ${err.message}`);
  process.exit(1);
}
await import('../dist/src/cli.js');
