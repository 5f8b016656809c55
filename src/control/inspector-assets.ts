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

/**
 * The page loads only its own files and talks only to its own origin; no other site may frame it
 * (clickjacking of the reset button) and nothing injected into it could run or send data away.
 */
const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Static handler for the folder; /__mock/ui redirects to /__mock/ui/ so relative URLs resolve. */
export function inspectorStatic(): express.RequestHandler {
  let dir: string;
  try {
    dir = inspectorDir();
  } catch (err) {
    // A package without the page still serves the API; only the page's paths say why not.
    const reason = (err as Error).message;
    return (_req, res) => {
      res.status(404).type('text/plain').send(`teamchat-mock: ${reason}\n`);
    };
  }
  const serve = express.static(dir, {
    index: 'index.html',
    fallthrough: true,
    // The page is a developer tool: always revalidate, so an upgraded mock serves new files.
    setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
  });
  return (req, res, next) => {
    for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
    serve(req, res, next);
  };
}
