// POST /remotes/push/e2ee/register: the push bouncer's side of an E2EE registration, which a
// self-hosted server sends after a client's POST /mobile_push/register. The mock answers as the
// bouncer for the remote servers it is given (--remote-server <uuid>:<api key>:<org uuid>,...):
// a remote server authenticates with HTTP Basic, its UUID as the user name and its API key as the
// password, with the real bouncer's errors (as 401 UNAUTHORIZED, as its decorator re-raises them);
// the organization must be one the server registered. The real bouncer decrypts the registration
// with its private key and refuses an unknown bouncer key, a stale or undecryptable registration;
// the mock holds no bouncer key, so it keeps every registration as sent (the same token again
// replaces it), where tests read them (the state's remote_push_devices).
import { ApiError, badRequest, missingArgument, unauthorized } from '../../errors.js';
import { basicCredentials } from '../../basic-credentials.js';
import type { RemoteServer } from '../server-info.js';
import type { OpenCtx, ParamsOf } from '../context.js';
import { remotePushDeviceKey } from '../../store/store.js';

type Params = ParamsOf<'register-remote-push-device'>;

function remoteServer(ctx: OpenCtx): RemoteServer {
  const creds = basicCredentials(ctx.authorization);
  if (!creds) throw unauthorized('Missing authorization header for basic auth');
  const [role, apiKey] = creds;
  if (role.includes('@')) throw badRequest('Must validate with valid Zulip server API key');
  const server = (ctx.server.services.remoteServers ?? []).find((s) => s.uuid === role);
  if (!server)
    throw unauthorized(
      `Zulip server auth failure: ${role} is not registered -- did you run \`manage.py register_server\`?`,
    );
  if (server.apiKey !== apiKey) throw unauthorized(`Zulip server auth failure: key does not match role ${role}`);
  return server;
}

export function registerRemotePushDevice(ctx: OpenCtx, p: Params): void {
  const server = remoteServer(ctx);
  // token_id replaced push_account_id at FL 468; each is required at its own levels.
  const modern = ctx.supports('remote_push_token_id');
  if (modern && p.token_id === undefined) throw missingArgument('token_id');
  if (!modern && p.push_account_id === undefined) throw missingArgument('push_account_id');
  if (!server.realmUuids.includes(p.realm_uuid))
    throw new ApiError('MISSING_REMOTE_REALM', 'Organization not registered', 403);
  const tokenId = modern ? p.token_id! : String(p.push_account_id);
  const row = {
    server_uuid: server.uuid,
    realm_uuid: p.realm_uuid,
    token_id: tokenId,
    bouncer_public_key: p.bouncer_public_key,
    encrypted_push_registration: p.encrypted_push_registration,
    date_registered: ctx.clock.now(),
  };
  const existing = ctx.store.remotePushDevices.get(remotePushDeviceKey(server.uuid, p.realm_uuid, tokenId));
  if (existing) ctx.store.remotePushDevices.update(existing, row);
  else ctx.store.remotePushDevices.insert(row);
}
