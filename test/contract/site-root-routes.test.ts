// Operations served at the site root (x-site-root: the path they are served at) and API operations
// may share a path template: GET /api/v1/user_uploads/{realm_id_str}/{filename} (a temporary URL)
// and GET /user_uploads/{realm_id_str}/{filename} (the file). The router keeps them apart, and a
// description that would make one of two operations unreachable stops the start.
import { describe, expect, it } from 'vitest';
import { buildOperations } from '../../src/contract/operations.js';
import { Router } from '../../src/contract/router.js';
import type { OpenApiDoc } from '../../src/contract/load.js';
import { sharedContract } from '../../src/server.js';

const found = (router: Router, method: string, path: string) => {
  const m = router.match(method, path);
  return m.kind === 'found' ? { id: m.op.id, values: m.pathValues } : m;
};

describe("the description's site-root operations", () => {
  const { router } = sharedContract();

  it('route the API path and the site path of one template to their own operations', () => {
    expect(found(router, 'GET', '/api/v1/user_uploads/2/4e/abc/zulip.txt')).toEqual({
      id: 'get-file-temporary-url',
      values: { realm_id_str: '2', filename: '4e/abc/zulip.txt' },
    });
    expect(found(router, 'GET', '/user_uploads/2/4e/abc/zulip.txt')).toEqual({
      id: 'get-user-upload',
      values: { realm_id_str: '2', filename: '4e/abc/zulip.txt' },
    });
    expect(found(router, 'GET', '/user_uploads/temporary/ABCD/zulip.txt')).toEqual({
      id: 'get-user-upload-with-token',
      values: { token: 'ABCD', filename: 'zulip.txt' },
    });
    expect(found(router, 'GET', '/user_avatars/2/abc.png')).toEqual({
      id: 'get-user-avatar',
      values: { realm_id_str: '2', filename: 'abc.png' },
    });
    expect(found(router, 'GET', '/user_avatars/2/emoji/images/1.png')).toEqual({
      id: 'get-custom-emoji-image',
      values: { realm_id_str: '2', emoji_file_name: '1.png' },
    });
    expect([...router.siteRootPrefixes].sort()).toEqual(['/user_avatars/', '/user_uploads/']);
  });

  it('are known by the path they are served at, not by their key', () => {
    const op = sharedContract().byId.get('get-user-upload')!;
    expect({ path: op.path, siteRoot: op.siteRoot }).toEqual({
      path: '/user_uploads/{realm_id_str}/{filename}',
      siteRoot: true,
    });
    expect(sharedContract().byId.get('get-file-temporary-url')!.siteRoot).toBe(false);
  });
});

const doc = (paths: Record<string, unknown>): OpenApiDoc => ({
  openapi: '3.1.0',
  info: {},
  paths: paths as OpenApiDoc['paths'],
  components: {},
});
const get = (operationId: string, extra: Record<string, unknown> = {}) => ({
  get: { operationId, responses: { '200': { description: 'ok' } }, ...extra },
});

describe('a malformed site-root description', () => {
  it('is refused when x-site-root is not a path with the parameters of its key', () => {
    expect(() => buildOperations(doc({ '/site-root/files/{id}': get('get-file', { 'x-site-root': true }) }))).toThrow(
      'get-file: x-site-root must be the path it is served at, with the parameters of its key /site-root/files/{id} (got true)',
    );
    expect(() =>
      buildOperations(doc({ '/site-root/files/{id}': get('get-file', { 'x-site-root': '/files/{name}' }) })),
    ).toThrow('get-file: x-site-root must be');
  });

  it('is refused when two operations answer the same method at the same served path', () => {
    const ops = buildOperations(
      doc({
        '/site-root/files/{id}': get('get-file', { 'x-site-root': '/files/{id}' }),
        '/site-root/again/files/{id}': get('get-file-again', { 'x-site-root': '/files/{id}' }),
      }),
    );
    expect(() => new Router(ops, '/api/v1')).toThrow('get-file and get-file-again both answer GET /files/{id}');
  });
});
