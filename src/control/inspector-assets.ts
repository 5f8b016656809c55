// The web inspector's files (src/ui: plain ES modules and CSS, no build step), served at
// /__mock/ui. Found from the package root, so that the compiled dist/ serves the same folder.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';

/** The src/ui folder: two levels up from src/control, three from dist/src/control. */
function inspectorDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const up of ['../..', '../../..']) {
    const dir = path.resolve(here, up, 'src', 'ui');
    if (existsSync(path.join(dir, 'index.html'))) return dir;
  }
  throw new Error(`the inspector's files (src/ui/index.html) were not found above ${here}`);
}

/** Static handler for the folder; /__mock/ui redirects to /__mock/ui/ so relative URLs resolve. */
export function inspectorStatic(): express.RequestHandler {
  let dir: string;
  try {
    dir = inspectorDir();
  } catch (err) {
    // A package without the page still serves the API; only the page's paths say why not.
    const reason = (err as Error).message;
    return (_req, res) => { res.status(404).type('text/plain').send(`teamchat-mock: ${reason}\n`); };
  }
  return express.static(dir, {
    index: 'index.html',
    fallthrough: true,
    // The page is a developer tool: always revalidate, so an upgraded mock serves new files.
    setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
  });
}
