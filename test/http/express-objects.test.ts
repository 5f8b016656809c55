// Requests and responses are made with Express's prototypes from the start (src/http/express-objects.ts),
// so that Express's per-request Object.setPrototypeOf finds them in place.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { expressObjects } from '../../src/http/express-objects.js';

describe('expressObjects', () => {
  it("makes each request and response with the app's prototypes, and Express works on them as usual", async () => {
    const app = express();
    app.get('/hello', (req, res) => {
      res.status(201).json({ query: req.query, path: req.path, isJson: req.is('json') });
    });
    const server = http.createServer(expressObjects(app), app);
    const seen: boolean[] = [];
    // The 'request' event comes before Express sees the objects.
    server.on('request', (req, res) =>
      seen.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hello?a=1`);
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ query: { a: '1' }, path: '/hello', isJson: null });
      expect(seen).toEqual([true]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("the objects are still Node's requests and responses", () => {
    const app = express();
    const { IncomingMessage: Req, ServerResponse: Res } = expressObjects(app);
    const req = new Req!(new net.Socket());
    expect(req).toBeInstanceOf(http.IncomingMessage);
    expect(new Res!(req)).toBeInstanceOf(http.ServerResponse);
  });
});
