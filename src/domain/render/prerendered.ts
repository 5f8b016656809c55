// Renderings made by the build for the shipped fixture: what a fresh start renders before its
// first answer (the organization's description, in GET /server_settings) is rendered once, at
// build time, instead of at every start. Building the renderer (compiling the linkifiers, marked's
// first lexing) took a third of the time to the first answer. A rendering is taken from here only
// while the store still holds the file it was made from, unchanged in every part a rendering
// reads; otherwise the renderer runs as usual, and its answer is the same bytes.
import type { Store } from '../../store/store.js';
import { SERVER_RENDER_LEVELS, type RenderLevel } from './render-level.js';

/** A state file's SHA-256 -> rendering key (see keyOf) -> HTML. */
export type Renderings = Record<string, Record<string, string>>;

// Set by the bundled command line's build (scripts/build.mjs) for the shipped fixture; run from
// the sources, there is none.
declare const BUILD_RENDERINGS: Renderings | undefined;

const BUILT: Renderings = { ...(typeof BUILD_RENDERINGS === 'undefined' ? {} : BUILD_RENDERINGS) };

/**
 * Adds renderings made as the build makes them (renderingsAtStart) for more state files; gives a
 * function that takes them back. The test of this module uses it to run from the sources what
 * the bundled command line runs.
 */
export function addRenderings(renderings: Renderings): () => void {
  Object.assign(BUILT, renderings);
  return () => {
    for (const file of Object.keys(renderings)) delete BUILT[file];
  };
}

const keyOf = (content: string, level: RenderLevel) => `${level.name}\n${content}`;

/**
 * The build's rendering of `content` with no author, when the store holds the state file the
 * build rendered it from, unchanged in `inputs` (the parts of the state a rendering reads);
 * undefined otherwise.
 */
export function prerendered(
  store: Store,
  inputs: Parameters<Store['loadedFileUnchanged']>[0],
  content: string,
  level: RenderLevel,
): string | undefined {
  const file = store.loadedFileUnchanged(inputs);
  if (file === null) return undefined;
  return BUILT[file]?.[keyOf(content, level)];
}

/**
 * What the build renders for a state file loaded in `store`: the organization's description at
 * each render level real servers have had, with `render` (the renderer's own renderMarkdown).
 */
export function renderingsAtStart(
  store: Store,
  render: (content: string, level: RenderLevel) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const level of SERVER_RENDER_LEVELS) {
    const content = store.realm.description;
    out[keyOf(content, level)] = render(content, level);
  }
  return out;
}
