// Express gives every request and response its own prototypes (app.request, app.response) with
// Object.setPrototypeOf, on each request. Changing an object's prototype after it was made is
// slow in V8 and made the request objects outlive the young generation: it cut the requests a
// bare node:http server answers by half and made every minor garbage collection ten times longer.
// Node lets a server say which classes to make requests and responses with; made with Express's
// prototypes from the start, Express's own setPrototypeOf finds them in place and does nothing.
import http from 'node:http';
import type express from 'express';

type Objects = Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>;

/** Node's own classes are functions callable on a new object; were they ES classes, keep Node's. */
const callable = (f: Function) => !/^class\b/.test(Function.prototype.toString.call(f));

export function expressObjects(app: express.Express): Objects {
  const NodeRequest = http.IncomingMessage as unknown as (...args: unknown[]) => void;
  const NodeResponse = http.ServerResponse as unknown as (...args: unknown[]) => void;
  if (!callable(NodeRequest) || !callable(NodeResponse)) return {};
  // Plain constructors: Reflect.construct with a new.target gave the same objects four times slower.
  function Request(this: unknown, ...args: unknown[]) {
    NodeRequest.apply(this, args);
  }
  Request.prototype = app.request;
  function Response(this: unknown, ...args: unknown[]) {
    NodeResponse.apply(this, args);
  }
  Response.prototype = app.response;
  return {
    IncomingMessage: Request as unknown as typeof http.IncomingMessage,
    ServerResponse: Response as unknown as typeof http.ServerResponse,
  };
}
