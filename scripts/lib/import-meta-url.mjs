// Injected by esbuild into the CommonJS bundles (scripts/build.mjs, scripts/build-binary.mjs) for
// `import.meta.url`, which CommonJS lacks: the bundle's own file (package-root.ts finds the
// package's files from it).
import { pathToFileURL } from 'node:url';

export const importMetaUrl = typeof __filename === 'string' ? pathToFileURL(__filename).href : undefined;
