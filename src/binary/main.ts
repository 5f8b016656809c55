// Entry of the single executable (npm run build:binary): the setup runs first (imports are
// evaluated in order), then the command line exactly as `npx teamchat-mock` runs it.
import './setup.js';
import '../cli.js';
