// The web inspector's files (src/ui: plain ES modules and CSS, no build step), served at
// /__mock/ui. Found from the package root, so that the compiled dist/ serves the same folder.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { packagePath } from '../package-root.js';
import express from 'express';

/** The src/ui folder of the package (shipped as it is: the compiled dist/ serves it too). */
function inspectorDir(): string {
  const dir = packagePath('src', 'ui');
  if (existsSync(path.join(dir, 'index.html'))) return dir;
  throw new Error(`the inspector's files (${dir}/index.html) are missing`);
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
