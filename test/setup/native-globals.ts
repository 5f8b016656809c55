// Keeps Node's own FormData global. zulip-js's dependency isomorphic-form-data replaces it with
// the form-data package's class (which fetch cannot send) when it is first loaded, and test files
// share their worker's globals and loaded packages (vitest.config.ts: isolate false). So zulip-js
// is loaded here, before any test file, and Node's class put back; later imports of zulip-js find
// it loaded and change nothing. (zulip-js keeps its own reference to the class it uses.)
const native = globalThis.FormData;
await import('zulip-js');
globalThis.FormData = native;
