// The import rules of src/, checked by `npm run lint` (part of `npm test`) with dependency-cruiser:
// the layers import only downward, no file sits outside a layer, and there are no import cycles.
// ARCHITECTURE.md ("Layers") says why the layers are these; test/layout/layering.test.ts shows
// each rule failing on a tree that breaks it. Type-only imports count like any other.

/** The layers, lowest first: a file may import its own layer and those listed before it. */
const LAYERS = [
  // What everything stands on: the description, the state, time, errors, small helpers.
  ['ground', ['^src/(contract|store)/', '^src/(basic-credentials|clock|errors|memo|package-root|upload-limits)\\.ts$']],
  // The resources: views, actions, access checks, events, rendering.
  ['domain', ['^src/domain/']],
  // One universe: a store, its event queues, its clock (every pipeline stage carries one).
  ['world', ['^src/world\\.ts$']],
  // The Express edge: bodies, authentication, the envelope, writing answers.
  ['http', ['^src/http/']],
  // The named stages of a request, and the proxy stage.
  ['pipeline', ['^src/pipeline/']],
  // The mock's own surface: the control API, scenarios, journal, coverage, the inspector's server side.
  ['control', ['^src/control/']],
  // Composition: the Express app, the server, its sandboxes.
  ['composition', ['^src/(app|server|sandboxes)\\.ts$']],
  // Entry points and tools on top: the command line and its commands, the package entry, the single executable, the inspector page.
  ['entry', ['^src/(cli|cli-errors|cli-output|request-log|index)\\.ts$', '^src/(verify|record|binary|ui)/']],
];

const layerRules = LAYERS.slice(0, -1).map(([name, paths], i) => ({
  name: `no-upward-from-${name}`,
  comment: `A file of the ${name} layer imports only ${LAYERS.slice(0, i + 1)
    .map(([n]) => n)
    .join(', ')} (ARCHITECTURE.md, "Layers").`,
  severity: 'error',
  from: { path: paths },
  to: { path: LAYERS.slice(i + 1).flatMap(([, p]) => p) },
}));

const everyLayer = LAYERS.flatMap(([, p]) => p);

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'unlayered-file',
      comment: 'Every file under src/ belongs to a layer: add its folder to LAYERS here and to ARCHITECTURE.md.',
      severity: 'error',
      from: { path: '^src/', pathNot: everyLayer },
      to: {},
    },
    {
      name: 'no-circular',
      comment: 'No import cycles: a cycle makes module load order matter and blurs which side is lower.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    // PENDING (issue #26, the arch-register helper adds it once each resource exposes its surface):
    // a resource of src/domain/<r>/ imports another resource only through its public surface.
    // A sketch: `$1` is the importing resource, matched in `from`.
    // {
    //   name: 'resource-internals',
    //   comment: 'A resource imports another resource only through what that one exposes.',
    //   severity: 'error',
    //   from: { path: '^src/domain/([^/]+)/' },
    //   to: { path: '^src/domain/[^/]+/', pathNot: ['^src/domain/$1/', '^src/domain/[^/]+/PUBLIC-SURFACE-FILE\\.ts$'] },
    // },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Resolves `./x.js` to `./x.ts`, as TypeScript's NodeNext resolution does.
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
