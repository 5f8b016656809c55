// First step of the single executable (see main.ts): unpacks the embedded files into a private
// folder (unpack.ts), which then serves as the package root.
import { getAsset } from 'node:sea';
import { unpack, type BuildHashes, type EmbeddedFiles } from './unpack.js';

/** Names of the assets holding the files and what the build computed of them (scripts/build-binary.mjs writes them). */
const FILES_ASSET = 'files.json';
const BUILD_ASSET = 'build.json';

// The files themselves are parsed only when they must be written: a start that finds its
// verified copy reads the small build asset alone.
const { hashes, bundles } = JSON.parse(getAsset(BUILD_ASSET, 'utf8')) as { hashes: BuildHashes; bundles: string[] };
const files = () => (JSON.parse(getAsset(FILES_ASSET, 'utf8')) as { files: EmbeddedFiles }).files;

/** The unpacked files' folder. */
export const root = unpack(files, bundles, hashes);
