// The world's service bot queue, standing for the real server's outgoing_webhooks and
// embedded_bots queues and workers: a sent message that concerns a service bot leaves an event
// here (the message as it was sent), and the calls run after the sender has been answered, a few
// at a time. Only timeouts and connection errors are tried again (the real retry_event: the first
// try and 3 more, at once), then the bot posts "Failure! Bot is unavailable" and its owner is told.
// Every try is reported to the host (the journal), with the request and the answer. Tests wait for
// the queue to drain (settled); a reset drops what is queued and ignores what is in flight.
import { ApiError } from '../../../errors.js';
import type { User } from '../../../store/state.js';
import type { SentMentions, ServiceBotSink, WorldCtx } from '../../context.js';
import type { Message } from '../../../store/state.js';
import { messageDict } from '../../messages/format.js';
import { sendMessage } from '../../messages/send.js';
import { truncate } from '../../messages/truncate.js';
import { BotType } from '../services.js';
import { AnswerError, checkWidgetContent, replyOf } from './answers.js';
import { runEmbeddedBot, withoutMention } from './embedded.js';
import { failWithMessage, notifyBotOwner, replyWhereSent, type OwnerNotice } from './notices.js';
import { genericPayload, slackForm, type MessageSnapshot } from './payloads.js';
import { post, type PostOutcome } from './post.js';
import { pyReprBytes, pyReprStr } from './py-text.js';
import { serviceBotEvents } from './triggers.js';
import { mayCall } from './url-policy.js';

/** The real server's MAX_REQUEST_RETRIES: tries after the first. */
const MAX_RETRIES = 3;

export interface ServiceBotOptions {
  /** Deadline of one try (the real server's OUTGOING_WEBHOOK_TIMEOUT_SECONDS, 10 s). */
  timeoutMs: number;
  /** Hosts besides loopback ones that may be called (--allow-outgoing). */
  allowHosts: readonly string[];
  /** Calls in flight at once, per world. */
  maxConcurrent: number;
  /** Calls in flight at once across every world of the server (sandboxes share it). */
  slots: CallSlots;
  /** Bytes of an answer read at most; the rest is not read. */
  maxAnswerBytes: number;
  /** Events waiting at most; a message past it calls nobody (and says so in the journal). */
  maxQueued: number;
}

/** One try (or one run of an embedded bot), as the journal shows it. */
export interface ServiceBotCall {
  kind: 'outgoing-webhook' | 'embedded-bot';
  bot: User;
  /** The URL called, or `embedded:<name>`. */
  url: string;
  /** Mock-clock time of the start, ms; real duration. */
  timeMs: number;
  durationMs: number;
  /** trigger, message_id, attempt, and the request sent (its token redacted by the journal). */
  params: Record<string, unknown>;
  /** The HTTP status answered; 0 when none (timeout, connection error, no call). */
  status: number;
  /** outcome, answer, and `code` for a try that got no answer (TIMEOUT, CONNECTION_ERROR, ...). */
  result: Record<string, unknown>;
  /** About the length of `params.request` as JSON, when it was sent as JSON (the journal's entry size). */
  requestChars?: number;
}

export interface ServiceBotHost {
  /** The feature level the world answers at (the trigger's name depends on it). */
  level(): number;
  /** The server's version at a level (the User-Agent). */
  version(level: number): string;
  maxMessageLength(): number;
  record(call: ServiceBotCall): void;
}

/**
 * The bound on calls in flight that the worlds of one server share, so that many sandboxes
 * cannot multiply the sockets and the answers held (each up to maxAnswerBytes). A world that
 * finds no slot free waits its turn; a slot given back wakes the waiting worlds in order.
 */
export class CallSlots {
  private used = 0;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly max: number) {}

  /** Takes a slot, or puts `wake` in line for the next one given back. */
  take(wake: () => void): boolean {
    if (this.used < this.max) {
      this.used++;
      this.waiting.delete(wake);
      return true;
    }
    this.waiting.add(wake);
    return false;
  }

  give(): void {
    this.used--;
    // A woken world with nothing left to run (a reset, a dropped sandbox) takes nothing: wake the next.
    for (const wake of this.waiting) {
      if (this.used >= this.max) break;
      this.waiting.delete(wake);
      wake();
    }
  }
}

interface Job {
  generation: number;
  botId: number;
  trigger: string;
  message: MessageSnapshot;
  failedTries: number;
}

export class ServiceBotCalls implements ServiceBotSink {
  private queue: Job[] = [];
  private running = 0;
  private generation = 0;
  private scheduled = false;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly world: WorldCtx,
    private readonly options: ServiceBotOptions,
    private readonly host: ServiceBotHost,
  ) {}

  messageSent(
    message: Message,
    mentions: SentMentions,
    recipientIds: readonly number[],
    dict?: Record<string, unknown>,
  ): void {
    const events = serviceBotEvents(this.world.store, message, mentions, recipientIds, this.host.level());
    if (!events.length) return;
    // The event carries the message as it was sent, as the real queue's does (the message
    // event's own dict when there is one: published events never change). Built only for an
    // event the queue takes: a full queue's drop needs only the ID (a message sent faster than
    // its bot answers was paying for a dict nobody read).
    let snapshot: MessageSnapshot | undefined = dict;
    for (const e of events) {
      const job = { generation: this.generation, botId: e.bot.user_id, trigger: e.trigger, failedTries: 0 };
      if (this.full) this.drop(job, message.id);
      else this.enqueue({ ...job, message: (snapshot ??= messageDict(this.world.store, message)) });
    }
  }

  /** Events queued or running. */
  get pending(): number {
    return this.queue.length + this.running;
  }

  /** Resolves true once nothing is queued or running (false when `timeoutMs` passes first). */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.pending === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(done);
    });
  }

  /** Drops the queued events; calls in flight finish unheard (the state they would answer in is gone). */
  clear(): void {
    this.generation++;
    this.queue = [];
    this.wakeIfIdle();
  }

  private get full(): boolean {
    return this.queue.length >= this.options.maxQueued;
  }

  /** A job the full queue cannot take: the journal says so (the message itself is not needed). */
  private drop(job: Omit<Job, 'message'>, messageId: number): void {
    const bot = this.world.store.users.get(job.botId);
    if (bot)
      this.record(
        bot,
        job,
        messageId,
        'dropped',
        0,
        { outcome: 'dropped: the queue is full', code: 'QUEUE_FULL' },
        this.world.clock.nowMs(),
        performance.now(),
      );
  }

  private enqueue(job: Job): void {
    if (this.full) {
      this.drop(job, job.message.id as number);
      return;
    }
    this.queue.push(job);
    if (!this.scheduled) {
      this.scheduled = true;
      // After the current request has been answered: the sender never waits for a bot.
      setImmediate(() => {
        this.scheduled = false;
        this.pump();
      });
    }
  }

  /** Called by the shared slots when one is given back while this world waits. */
  private readonly wake = () => this.pump();

  private pump(): void {
    const { slots } = this.options;
    while (this.running < this.options.maxConcurrent && this.queue.length && slots.take(this.wake)) {
      const job = this.queue.shift()!;
      this.running++;
      this.run(job)
        .catch((err) => console.error(`teamchat-mock: service bot call failed: ${(err as Error).stack ?? err}`))
        .finally(() => {
          this.running--;
          slots.give();
          this.pump();
          this.wakeIfIdle();
        });
    }
  }

  private wakeIfIdle(): void {
    if (this.pending !== 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private async run(job: Job): Promise<void> {
    const bot = this.world.store.users.get(job.botId);
    if (!bot?.bot_service) return;
    if (bot.bot_type === BotType.embedded) this.runEmbedded(bot, job);
    else await this.callWebhook(bot, job);
  }

  private record(
    bot: User,
    job: Omit<Job, 'message'>,
    messageId: number,
    url: string,
    status: number,
    result: Record<string, unknown>,
    timeMs: number,
    started: number,
    request?: unknown,
    requestChars?: number,
  ): void {
    const kind = bot.bot_type === BotType.embedded ? 'embedded-bot' : 'outgoing-webhook';
    const params: Record<string, unknown> = {
      trigger: job.trigger,
      message_id: messageId,
      attempt: job.failedTries + 1,
    };
    if (request !== undefined) params.request = request;
    const call: ServiceBotCall = {
      kind,
      bot,
      url,
      timeMs,
      durationMs: performance.now() - started,
      params,
      status,
      result,
    };
    if (requestChars !== undefined) call.requestChars = requestChars;
    this.host.record(call);
  }

  private async callWebhook(bot: User, job: Job): Promise<void> {
    const { store, clock } = this.world;
    const service = bot.bot_service!;
    const slack = service.interface === 2;
    const timeMs = clock.nowMs();
    const started = performance.now();
    if (slack && job.message.type === 'private') {
      failWithMessage(this.world, bot, job.message, "Slack outgoing webhooks don't support direct messages.");
      this.record(
        bot,
        job,
        job.message.id,
        service.base_url,
        0,
        { outcome: 'not called: Slack outgoing webhooks take no direct messages', code: 'NOT_CALLED' },
        timeMs,
        started,
      );
      return;
    }
    const form = slack ? slackForm(store, bot, job.message, service.token, job.trigger) : null;
    const payload = form ? Object.fromEntries(form) : genericPayload(bot, job.message, service.token, job.trigger);
    const allowed = this.mayCall(service.base_url);
    const body = form ? new URLSearchParams(form).toString() : JSON.stringify(payload);
    const outcome: PostOutcome = allowed
      ? await post({
          url: service.base_url,
          body,
          contentType: form ? 'application/x-www-form-urlencoded' : 'application/json',
          userAgent: `ZulipOutgoingWebhook/${this.host.version(this.host.level())}`,
          timeoutMs: this.options.timeoutMs,
          maxAnswerBytes: this.options.maxAnswerBytes,
        })
      : // As the real server's outgoing proxy answers a call to a network it may not reach.
        { kind: 'answer', status: 407, body: Buffer.alloc(0), truncated: false };
    if (job.generation !== this.generation) return;
    const result = {
      ...this.actOn(bot, job, outcome, slack),
      ...(allowed ? {} : { refused: 'not called: not a loopback address nor an --allow-outgoing host' }),
    };
    this.record(
      bot,
      job,
      job.message.id,
      service.base_url,
      outcome.kind === 'answer' ? outcome.status : 0,
      result,
      timeMs,
      started,
      payload,
      // The JSON sent is the request the journal shows (but for its redacted token).
      form ? undefined : body.length,
    );
  }

  /**
   * mayCall, answered once per URL (the hosts allowed never change): a bot called after every
   * message is called at the same URL, and parsing it each time cost 2 µs a call. Bounded.
   */
  private readonly allowedUrls = new Map<string, boolean>();

  private mayCall(url: string): boolean {
    let allowed = this.allowedUrls.get(url);
    if (allowed === undefined) {
      if (this.allowedUrls.size >= 256) this.allowedUrls.clear();
      this.allowedUrls.set(url, (allowed = mayCall(url, this.options.allowHosts)));
    }
    return allowed;
  }

  /** Acts on a try's outcome as do_rest_call does; returns what the journal shows of it. */
  private actOn(bot: User, job: Job, outcome: PostOutcome, slack: boolean): Record<string, unknown> {
    const { message } = job;
    if (outcome.kind === 'invalid-url') {
      this.fail(
        bot,
        message,
        `An exception of type *${outcome.type}* occurred for message \`${message.content}\`! See the Zulip server logs for more information.`,
        { exception: { type: outcome.type, text: outcome.text } },
      );
      return { outcome: 'failure', code: 'INVALID_URL', error: outcome.text };
    }
    if (outcome.kind === 'timeout' || outcome.kind === 'connection-error') {
      const timeout = outcome.kind === 'timeout';
      const code = timeout ? 'TIMEOUT' : 'CONNECTION_ERROR';
      const error = timeout ? `no answer within ${this.options.timeoutMs} ms` : outcome.detail;
      const failedTries = job.failedTries + 1;
      if (failedTries <= MAX_RETRIES) {
        this.enqueue({ ...job, failedTries });
        return { outcome: 'retry', code, error };
      }
      const failure = timeout
        ? `Request timed out after ${this.options.timeoutMs / 1000} seconds.`
        : 'A connection error occurred. Is my bot server down?';
      this.fail(bot, message, 'Bot is unavailable', { failure });
      return { outcome: 'failure: maximum retries exceeded', code, error };
    }
    const text = outcome.body.toString('utf8');
    const answer = { status: outcome.status, body: text, ...(outcome.truncated ? { truncated: true } : {}) };
    if (outcome.status < 200 || outcome.status >= 300) {
      this.fail(bot, message, `Third party responded with ${outcome.status}`, {
        status: outcome.status,
        ...(outcome.body.length ? { responseRepr: pyReprBytes(outcome.body) } : {}),
      });
      return { outcome: 'failure', answer };
    }
    try {
      const reply = replyOf(slack, text);
      if (!reply) return { outcome: 'no reply', answer };
      checkWidgetContent(reply.widgetContent);
      replyWhereSent(this.world, bot, message, this.bounded(reply.content));
      return { outcome: 'reply', answer };
    } catch (err) {
      if (!(err instanceof AnswerError) && !(err instanceof ApiError)) throw err;
      this.fail(bot, message, err.message, {
        failure: `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${err.message}`,
        ...(text ? { responseRepr: pyReprStr(text) } : {}),
      });
      return { outcome: 'failure', answer, error: err.message };
    }
  }

  /** "Failure! ..." where the message was, then the owner's notice (the real server's order). */
  private fail(bot: User, message: MessageSnapshot, failure: string, notice: OwnerNotice): void {
    failWithMessage(this.world, bot, message, failure);
    notifyBotOwner(this.world, bot, message, notice, this.host.maxMessageLength());
  }

  /** Content past the server's limit is cut with the real marker (normalize_body), not refused. */
  private bounded(content: string): string {
    return truncate(content, this.host.maxMessageLength(), '\n[message truncated]');
  }

  private runEmbedded(bot: User, job: Job): void {
    const name = bot.bot_service!.name;
    const timeMs = this.world.clock.nowMs();
    const started = performance.now();
    const url = `embedded:${name}`;
    let content: string | null = job.message.content;
    if (job.trigger === 'mention') content = withoutMention(job.message.content, bot);
    if (content === null) {
      this.record(
        bot,
        job,
        job.message.id,
        url,
        0,
        { outcome: "no reply: the message does not open with the bot's mention", code: 'NOT_ADDRESSED' },
        timeMs,
        started,
      );
      return;
    }
    const actions = runEmbeddedBot(name, { ...job.message, content }, bot.bot_config ?? {});
    if (!actions) {
      this.record(
        bot,
        job,
        job.message.id,
        url,
        0,
        {
          outcome: `not run: the mock does not run the embedded bot ${name} (or it lacks its configuration)`,
          code: 'NOT_SUPPORTED',
        },
        timeMs,
        started,
      );
      return;
    }
    const sent: string[] = [];
    for (const action of actions) {
      try {
        if ('reply' in action) replyWhereSent(this.world, bot, job.message, this.bounded(action.reply), 'Internal');
        else
          sendMessage(this.world, bot, {
            type: 'stream',
            to: action.channel,
            topic: action.topic,
            content: this.bounded(action.content),
            client: 'Internal',
          });
        sent.push('reply' in action ? action.reply : action.content);
      } catch (err) {
        // The real handler's internal sends log a message that cannot be sent and go on.
        if (!(err instanceof ApiError)) throw err;
      }
    }
    this.record(
      bot,
      job,
      job.message.id,
      url,
      0,
      { outcome: sent.length ? 'reply' : 'no reply', sent },
      timeMs,
      started,
      { content },
    );
  }
}
