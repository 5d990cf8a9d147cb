import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { clipWords, type Calibration, type EmbedPurpose, type Embedder } from './embedder.js';

/**
 * Embedding across processes on PostgreSQL (decision 0018): an `api` process never loads a model;
 * it asks a live worker over LISTEN/NOTIFY. Workers register in `model_workers` (the models they
 * have ready, a heartbeat) and LISTEN on a channel of their own; the api NOTIFYs one of them with
 * the texts and waits for the vectors on its own reply channel.
 */

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: requests and reply chunks stay below. */
const PAYLOAD_BYTES = 7500;
/** A text is cut to this many bytes on the wire; the models read far less (256 tokens at most). */
const TEXT_BYTES = 6000;
const channelId = /^[0-9a-f]{32}$/;
export const requestChannel = (workerId: string): string => `linkwise_embed_${workerId}`;
const replyChannel = (processId: string): string => `linkwise_reply_${processId}`;

const RequestSchema = z.object({
  r: z.string().regex(channelId),
  to: z.string().regex(/^linkwise_reply_[0-9a-f]{32}$/),
  m: z.string().min(1).max(200),
  p: z.enum(['document', 'query']),
  t: z.array(z.string().max(TEXT_BYTES)).min(1).max(256),
});
type Request = z.infer<typeof RequestSchema>;

const ReplySchema = z.union([
  z.object({ r: z.string(), i: z.number().int().min(0), n: z.number().int().min(1).max(10_000), d: z.string() }),
  z.object({ r: z.string(), e: z.string() }),
]);

/** A worker as the `api` sees it: the models it embeds with, its links' model first. */
export interface LiveWorker {
  id: string;
  models: string[];
}

function clipBytes(text: string, max: number): string {
  let out = clipWords(text);
  for (let bytes = Buffer.byteLength(out); bytes > max; bytes = Buffer.byteLength(out)) {
    out = out.slice(0, Math.floor((out.length * max) / bytes) - 1);
  }
  return out;
}

const notify = (db: Kysely<DB>, channel: string, payload: string) =>
  sql`select pg_notify(${channel}, ${payload})`.execute(db);

export interface RelayLog {
  info(context: object, message: string): void;
  warn(context: object, message: string): void;
}

/**
 * The worker's side: registers itself with the models it has ready, heartbeats, and answers the
 * requests NOTIFYed to its channel with the vectors, in chunks NOTIFYed to the asker's channel.
 */
export class EmbedRelayWorker {
  readonly id = randomUUID().replaceAll('-', '');
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private readonly started: number;

  constructor(
    private readonly database: Database,
    private readonly deps: {
      /** The models this process embeds with now, its links' model first. */
      models: () => Map<string, Embedder>;
      version: string;
      now: () => number;
      log: RelayLog;
      heartbeatMs?: number;
    },
  ) {
    this.started = deps.now();
  }

  async start(): Promise<void> {
    if (!this.database.listen) throw new Error('embedding for other processes needs PostgreSQL');
    this.stopListening = await this.database.listen(requestChannel(this.id), (payload) => {
      if (payload) void this.answer(payload);
    });
    await this.heartbeat();
    const every = this.deps.heartbeatMs ?? 5000;
    this.timer = setInterval(
      () =>
        void this.heartbeat().catch((error: unknown) =>
          this.deps.log.warn({ err: error }, 'could not record this worker as ready to embed'),
        ),
      every,
    );
    this.timer.unref();
  }

  /** Also the registration: the row is written again if something removed it. */
  private async heartbeat(): Promise<void> {
    const now = this.deps.now();
    const models = JSON.stringify([...this.deps.models().keys()]);
    await this.database.db
      .insertInto('model_workers')
      .values({ id: this.id, models, version: this.deps.version, started_at: this.started, heartbeat_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ models, heartbeat_at: now }))
      .execute();
  }

  private async answer(payload: string): Promise<void> {
    let request: Request;
    try {
      request = RequestSchema.parse(JSON.parse(payload));
    } catch {
      this.deps.log.warn({}, 'refused a malformed embedding request');
      return;
    }
    const { db } = this.database;
    try {
      const embedder = this.deps.models().get(request.m);
      if (!embedder) throw new Error(`this worker has no ${request.m} ready`);
      const vectors = await embedder.embed(request.t, request.p);
      const bytes = new Float32Array(vectors.reduce((n, v) => n + v.length, 0));
      let at = 0;
      for (const v of vectors) bytes.set(v, (at += v.length) - v.length);
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
      const size = PAYLOAD_BYTES - 100;
      const n = Math.max(1, Math.ceil(data.length / size));
      for (let i = 0; i < n; i++) {
        await notify(db, request.to, JSON.stringify({ r: request.r, i, n, d: data.slice(i * size, (i + 1) * size) }));
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await notify(db, request.to, JSON.stringify({ r: request.r, e: message.slice(0, 500) })).catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.stopListening?.();
    // Gone at once rather than after its heartbeat ages: no request is sent here any more.
    await this.database.db
      .deleteFrom('model_workers')
      .where('id', '=', this.id)
      .execute()
      .catch(() => undefined);
  }
}

interface Pending {
  chunks: string[];
  received: number;
  resolve: (data: Buffer) => void;
  reject: (error: Error) => void;
}

export interface EmbedRelayOptions {
  now: () => number;
  /** How long a search waits for a query's vector before answering from text (QUERY_EMBED_TIMEOUT_MS). */
  queryTimeoutMs: number;
  /** How long other embeddings (the add dialog, tag vectors) wait. */
  documentTimeoutMs: number;
  /** A worker whose heartbeat is older than this is taken for gone. */
  staleAfterMs?: number;
  /** Query vectors kept in this process (the same search typed again costs no round trip). */
  cachedQueries?: number;
}

/** The `api` process's side: sends texts to a live worker that has the model and waits for the vectors. */
export class EmbedRelay {
  private readonly id = randomUUID().replaceAll('-', '');
  private readonly pending = new Map<string, Pending>();
  private listening: Promise<() => Promise<void>> | undefined;
  private workers: LiveWorker[] = [];
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<LiveWorker[]> | undefined;
  /** Workers that let a request time out, left alone until this time. */
  private readonly suspect = new Map<string, number>();
  private turn = 0;
  private readonly queries: LRUCache<string, Float32Array>;

  constructor(
    private readonly database: Database,
    private readonly options: EmbedRelayOptions,
  ) {
    this.queries = new LRUCache({ max: options.cachedQueries ?? 1000 });
  }

  private get staleAfterMs(): number {
    return this.options.staleAfterMs ?? 20_000;
  }

  /** Starts listening for replies (also done by the first request). */
  start(): Promise<unknown> {
    if (!this.database.listen) return Promise.reject(new Error('embedding in a worker needs PostgreSQL'));
    this.listening ??= this.database.listen(replyChannel(this.id), (payload) => payload && this.received(payload));
    return this.listening;
  }

  /** Live workers, read at most once a second. */
  async live(): Promise<LiveWorker[]> {
    const now = this.options.now();
    if (now - this.readAt < 1000) return this.workers;
    this.reading ??= this.database.db
      .selectFrom('model_workers')
      .select(['id', 'models'])
      .where('heartbeat_at', '>=', now - this.staleAfterMs)
      .orderBy('id')
      .execute()
      .then((rows) => {
        this.workers = rows.map((r) => ({ id: r.id, models: JSON.parse(r.models) as string[] }));
        this.readAt = now;
        return this.workers;
      })
      .finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** A live worker with the model, those whose links' model it is first, taken in turn. */
  private async pick(model: string): Promise<string> {
    const now = this.options.now();
    const able = (await this.live()).filter(
      (w) => w.models.includes(model) && (this.suspect.get(w.id) ?? 0) <= now && channelId.test(w.id),
    );
    const first = able.filter((w) => w.models[0] === model);
    const from = first.length > 0 ? first : able;
    if (from.length === 0) throw new Error(`no live worker has the ${model} model ready`);
    return from[this.turn++ % from.length]!.id;
  }

  async embed(model: string, texts: string[], purpose: EmbedPurpose, dims: number): Promise<Float32Array[]> {
    const key = (t: string) => `${model}\u0000${t}`;
    const cached = purpose === 'query' ? texts.map((t) => this.queries.get(key(t))) : [];
    if (purpose === 'query' && cached.every((v) => v !== undefined)) return cached;
    await this.start();
    const clipped = texts.map((t) => clipBytes(t, TEXT_BYTES));
    // Texts grouped into requests that fit a NOTIFY; each request goes to a worker of its own turn.
    const groups: number[][] = [];
    let bytes = Number.POSITIVE_INFINITY;
    clipped.forEach((t, i) => {
      const size = Buffer.byteLength(JSON.stringify(t)) + 1;
      if (bytes + size > PAYLOAD_BYTES - 300 || groups.at(-1)!.length >= 64) {
        groups.push([]);
        bytes = 0;
      }
      groups.at(-1)!.push(i);
      bytes += size;
    });
    const out: Float32Array[] = new Array<Float32Array>(texts.length);
    await Promise.all(
      groups.map(async (group) => {
        const data = await this.request(
          model,
          group.map((i) => clipped[i]!),
          purpose,
        );
        if (data.byteLength !== group.length * dims * 4) {
          throw new Error(`a worker answered ${data.byteLength} bytes for ${group.length} vectors of ${dims}`);
        }
        const all = new Float32Array(new Uint8Array(data).buffer);
        group.forEach((i, k) => (out[i] = all.slice(k * dims, (k + 1) * dims)));
      }),
    );
    if (purpose === 'query') texts.forEach((t, i) => this.queries.set(key(t), out[i]));
    return out;
  }

  private async request(model: string, texts: string[], purpose: EmbedPurpose): Promise<Buffer> {
    const worker = await this.pick(model);
    const r = randomUUID().replaceAll('-', '');
    const timeoutMs = purpose === 'query' ? this.options.queryTimeoutMs : this.options.documentTimeoutMs;
    const answer = new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(r);
        this.suspect.set(worker, this.options.now() + this.staleAfterMs);
        reject(new Error(`no answer from a worker within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (fn: () => void) => {
        clearTimeout(timer);
        this.pending.delete(r);
        fn();
      };
      this.pending.set(r, {
        chunks: [],
        received: 0,
        resolve: (data) => done(() => resolve(data)),
        reject: (error) => done(() => reject(error)),
      });
    });
    const body: Request = { r, to: replyChannel(this.id), m: model, p: purpose, t: texts };
    try {
      await notify(this.database.db, requestChannel(worker), JSON.stringify(body));
    } catch (error) {
      this.pending.get(r)?.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return answer;
  }

  private received(payload: string): void {
    let reply: z.infer<typeof ReplySchema>;
    try {
      reply = ReplySchema.parse(JSON.parse(payload));
    } catch {
      return;
    }
    const call = this.pending.get(reply.r);
    if (!call) return; // timed out already
    if ('e' in reply) return call.reject(new Error(`the worker could not embed: ${reply.e}`));
    if (call.chunks[reply.i] === undefined) call.received += 1;
    call.chunks[reply.i] = reply.d;
    if (call.received === reply.n) call.resolve(Buffer.from(call.chunks.join(''), 'base64'));
  }

  async close(): Promise<void> {
    for (const call of this.pending.values()) call.reject(new Error('shutting down'));
    const stop = await this.listening?.catch(() => undefined);
    await stop?.();
  }
}

/** What a relayed model is: fixed, or the deployment's search model of the moment. */
export interface RelayedModel {
  id: string;
  dimensions: number;
  calibration: Calibration;
}

/** An `Embedder` whose vectors come from a worker (the `api` role): no model runtime in this process. */
export class RelayEmbedder implements Embedder {
  constructor(
    private readonly relay: EmbedRelay,
    private readonly model: () => RelayedModel,
  ) {}
  get modelId(): string {
    return this.model().id;
  }
  get dimensions(): number {
    return this.model().dimensions;
  }
  get calibration(): Calibration {
    return this.model().calibration;
  }
  embed(texts: string[], purpose: EmbedPurpose = 'document'): Promise<Float32Array[]> {
    const { id, dimensions } = this.model();
    return this.relay.embed(id, texts, purpose, dimensions);
  }
  /** The relay is closed by its owner. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
