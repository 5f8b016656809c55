// Run by `npm run build` after tsc: writes the merged OpenAPI documents as JSON
// (dist/openapi-bundle/), which the server reads at start-up instead of parsing the YAML while
// the YAML files are unchanged (see src/contract/load.ts).
import { writeBundles } from '../dist/src/contract/load.js';

writeBundles();
