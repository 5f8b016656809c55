// Facts about the server the mock pretends to be: version, feature level and the limits that
// clients learn from POST /register. The limits are read from the description (the maxLength of
// the parameters they bound) so that what the server reports and what it enforces are one value.
import type { Contract } from '../contract/contract.js';
import { serverRules, type ServerRules } from './server-rules.js';

export const NEWEST_FEATURE_LEVEL = 511;

/** The support address the real server's emails and some of its errors send people to (Zulip Cloud's). */
export const SUPPORT_EMAIL = 'support@zulip.com';

/**
 * The server setting MAX_BULK_NEW_SUBSCRIPTION_MESSAGES (FL 397): a subscription request that
 * subscribes more users than this sends them no notification bot messages. Register reports it.
 */
export const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

/** The name the empty topic is shown under (the real server's Message.EMPTY_TOPIC_FALLBACK_NAME). */
export const EMPTY_TOPIC_FALLBACK_NAME = 'general chat';

export interface ServerInfo {
  featureLevel: number;
  version: string;
  mergeBase: string;
  limits: {
    max_message_length: number;
    max_topic_length: number;
    max_stream_name_length: number;
    max_stream_description_length: number;
    max_channel_folder_name_length: number;
    max_channel_folder_description_length: number;
    max_reminder_note_length: number;
  };
  emptyTopicDisplayName: string;
  reportMessageTypes: Array<{ key: string; name: string }>;
  /** What register reports as event_queue_longpoll_timeout_seconds: the client's request timeout. */
  longpollTimeoutSeconds: number;
  /** How long a GET /events waits before its heartbeat: a whole number of seconds from min to max, drawn per poll. */
  heartbeatSeconds: { min: number; max: number };
  /** Where it answers as the development server (the default) or as a production one (--production, --no-dev-login). */
  rules: ServerRules;
  /** Hosts besides loopback ones an outgoing webhook may post to. */
  allowOutgoingHosts: readonly string[];
  /**
   * --rate-limit: the real server's RATE_LIMITING rules are enforced, the ones a view applies
   * itself (email_change_by_user) as well as those of the pipeline (src/pipeline/rate-limit.ts).
   */
  rateLimiting: boolean;
  /** Characters (keys and values together) one account may keep in bot storage. */
  botStorageLimit: number;
  /** Batches of messages one POST /streams/{id}/delete_topic deletes at most (the rest: complete=false). */
  deleteTopicBatches: number;
  /** Bytes of uploaded files one world keeps at most (its files live in memory and in --data). */
  uploadSpaceLimitBytes: number;
  /** The bound on uploaded files of all worlds together (sandboxes included), and what they hold now. */
  serverUploads: ServerUploads;
  /** The outside services the real server would be configured with (see ExternalServices). */
  services: ExternalServices;
}

/**
 * Settings the real server reads from its configuration file, given on the command line. The
 * mock never contacts these services: it builds the links the real server would get back.
 * Left out, the operation answers as a server without that setting does.
 */
export interface ExternalServices {
  /** NEXTCLOUD_SERVER (with its Talk account): POST /calls/nextcloud_talk/create. */
  nextcloudServer?: string;
  /** VIDEO_WEBEX_API_URL (with the OAuth client): POST /calls/webex/create. */
  webexSite?: string;
  /** CONSTRUCTOR_GROUPS_URL (with its keys): POST /calls/constructorgroups/create. */
  constructorGroupsUrl?: string;
  /** The key JWTs for POST /jwt/fetch_api_key are signed with (the realm's JWT_AUTH_KEYS entry, HS256). */
  jwtKey?: string;
  /** Servers registered with the mock as push bouncer (POST /remotes/push/...), with their organizations. */
  remoteServers?: RemoteServer[];
}

/** A self-hosted server registered with the bouncer: its UUID and API key, and the UUIDs of its registered organizations. */
export interface RemoteServer {
  uuid: string;
  apiKey: string;
  realmUuids: string[];
}

/** What all of a server's worlds keep of uploaded files (uploads, avatars, emoji images), and the bound. */
interface ServerUploads {
  limitBytes: number;
  usedBytes(): number;
}

/**
 * The default bound on the uploads of all worlds together: sandboxes are cheap to make, and each
 * may keep DEFAULT_UPLOAD_SPACE_MIB, so without it a few dozen sandboxes could hold gigabytes.
 */
export const DEFAULT_SERVER_UPLOAD_SPACE_MIB = 128;

/**
 * The default bound on one world's uploads. The files are kept in the state, base64 (a third
 * more), so 32 MiB of files stay under the 64 MB a state import takes: a world's export can
 * always be imported again. One file of the largest size (25 MiB) still fits.
 */
export const DEFAULT_UPLOAD_SPACE_MIB = 32;

/** What a server may be told besides its level (the command line's flags). */
export interface ServerInfoOptions {
  /** A fixed wait before the long-poll heartbeat (tests); default the real server's 45-55 s. */
  heartbeatSeconds?: number;
  /** true to answer as a production server does where it differs from the development server (server-rules.ts). */
  production?: boolean;
  /** false to answer the development login alone as a production server does. */
  devLogin?: boolean;
  /** Bytes of uploads one world keeps at most (default DEFAULT_UPLOAD_SPACE_MIB). */
  uploadSpaceLimitBytes?: number;
  /** Batches per delete_topic request; default the description's x-batches-per-request. */
  deleteTopicBatches?: number;
  services?: ExternalServices;
  /** The bound on all worlds' uploads together and how much they hold (default: no bound). */
  serverUploads?: ServerUploads;
  /** Hosts besides loopback ones an outgoing webhook may post to (--allow-outgoing). */
  allowOutgoingHosts?: readonly string[];
  /** true to enforce the rate limits views apply themselves (--rate-limit). */
  rateLimiting?: boolean;
}

/**
 * The real server's long-poll: Tornado answers a heartbeat after 45 s plus a random 0 to 10 whole
 * seconds (at most 55 s, under the idle limit of home routers), and register recommends clients
 * a 90 s request timeout, 35 s more than the longest wait. A test's --longpoll-timeout replaces
 * the heartbeat wait with a fixed one; the recommendation keeps the same margin above it.
 */
const HEARTBEAT_MIN_SECONDS = 45;
const HEARTBEAT_MAX_SECONDS = 55;
const CLIENT_TIMEOUT_MARGIN_SECONDS = 90 - HEARTBEAT_MAX_SECONDS;

function longpoll(
  heartbeatOverride: number | undefined,
): Pick<ServerInfo, 'longpollTimeoutSeconds' | 'heartbeatSeconds'> {
  const heartbeatSeconds =
    heartbeatOverride === undefined
      ? { min: HEARTBEAT_MIN_SECONDS, max: HEARTBEAT_MAX_SECONDS }
      : { min: heartbeatOverride, max: heartbeatOverride };
  return { heartbeatSeconds, longpollTimeoutSeconds: Math.ceil(heartbeatSeconds.max) + CLIENT_TIMEOUT_MARGIN_SECONDS };
}

/** The wait before one poll's heartbeat, in ms. */
export function heartbeatDelayMs(server: ServerInfo): number {
  const { min, max } = server.heartbeatSeconds;
  return (min === max ? min : min + Math.floor(Math.random() * (max - min + 1))) * 1000;
}

/** A limit the description states as an extension (x-size-limit) of an operation's parameter. */
function sizeLimit(contract: Contract, operationId: string, param: string): number {
  const value = contract.byId.get(operationId)?.params.find((p) => p.name === param)?.schema?.['x-size-limit'];
  if (typeof value !== 'number') throw new Error(`the description gives ${operationId} ${param} no x-size-limit`);
  return value;
}

/** A limit the description states as an extension of an operation itself. */
function operationLimit(contract: Contract, operationId: string, extension: string): number {
  const value = contract.byId.get(operationId)?.spec?.[extension];
  if (typeof value !== 'number') throw new Error(`the description gives ${operationId} no ${extension}`);
  return value;
}

/** A limit as the description states it; a description without it is a bug, not a default. */
function maxLength(contract: Contract, operationId: string, param: string): number {
  const value = contract.byId.get(operationId)?.params.find((p) => p.name === param)?.schema?.maxLength;
  if (typeof value !== 'number') throw new Error(`the description gives ${operationId} ${param} no maxLength`);
  return value;
}

const REPORT_TYPE_NAMES: Record<string, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
};

export function serverInfo(
  contract: Contract,
  featureLevel = NEWEST_FEATURE_LEVEL,
  options: ServerInfoOptions = {},
): ServerInfo {
  const {
    heartbeatSeconds,
    production,
    devLogin,
    uploadSpaceLimitBytes = DEFAULT_UPLOAD_SPACE_MIB * 1024 * 1024,
  } = options;
  // The report types the server accepts are the description's enum; only their names live here.
  const reportEnum: string[] | undefined = contract.byId
    .get('report-message')
    ?.params.find((p) => p.name === 'report_type')?.schema?.enum;
  if (!reportEnum) throw new Error('the description gives report-message report_type no enum');
  return {
    featureLevel,
    version: versionFor(featureLevel),
    mergeBase: versionFor(featureLevel),
    limits: {
      max_message_length: maxLength(contract, 'send-message', 'content'),
      max_topic_length: maxLength(contract, 'send-message', 'topic'),
      max_stream_name_length: maxLength(contract, 'create-channel', 'name'),
      max_stream_description_length: maxLength(contract, 'create-channel', 'description'),
      max_channel_folder_name_length: maxLength(contract, 'update-channel-folder', 'name'),
      max_channel_folder_description_length: maxLength(contract, 'update-channel-folder', 'description'),
      max_reminder_note_length: maxLength(contract, 'create-message-reminder', 'note'),
    },
    emptyTopicDisplayName: EMPTY_TOPIC_FALLBACK_NAME,
    reportMessageTypes: reportEnum.map((key) => ({ key, name: REPORT_TYPE_NAMES[key] ?? key })),
    ...longpoll(heartbeatSeconds),
    rules: serverRules({ production, devLogin }),
    allowOutgoingHosts: options.allowOutgoingHosts ?? [],
    rateLimiting: options.rateLimiting ?? false,
    botStorageLimit: sizeLimit(contract, 'update-bot-storage', 'storage'),
    deleteTopicBatches: options.deleteTopicBatches ?? operationLimit(contract, 'delete-topic', 'x-batches-per-request'),
    uploadSpaceLimitBytes,
    services: options.services ?? {},
    serverUploads: options.serverUploads ?? { limitBytes: Number.POSITIVE_INFINITY, usedBytes: () => 0 },
  };
}

/**
 * A release string that fits the level: the release whose final level it is, or the
 * development version of the next release for levels between two releases.
 */
function versionFor(level: number): string {
  const releases: Array<[number, string]> = [
    [65, '4.0'],
    [114, '5.0'],
    [144, '6.0'],
    [185, '7.0'],
    [237, '8.0'],
    [278, '9.0'],
    [359, '10.0'],
    [420, '11.0'],
    [498, '12.0'],
  ];
  for (const [final, release] of releases) {
    if (level === final) return release;
    if (level < final) return `${release}-dev`;
  }
  // 499-501 are the 12.x maintenance series' (backports of 506 and 504; 501 reserved), where
  // servers running 12.1 report 500; 502 starts 13.0's development.
  if (level <= 501) return '12.1';
  return '13.0-dev';
}
