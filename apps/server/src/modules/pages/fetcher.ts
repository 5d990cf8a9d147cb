import { isUtf8 } from 'node:buffer';
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import type IconvLite from 'iconv-lite';
import { Agent, buildConnector, fetch, type Response } from 'undici';
import type { AnalysisFailureReason } from '@linkwise/contract';
import { isPublicAddress } from './address-policy.js';

type Iconv = typeof IconvLite;
let iconvModule: Iconv | undefined;
/** Loaded with the first page fetched: a process that fetches nothing (an api process) never loads it. */
const iconv = (): Iconv => (iconvModule ??= createRequire(import.meta.url)('iconv-lite') as Iconv);

export type FetchErrorCode = 'FETCH_FAILED' | 'BLOCKED_ADDRESS' | 'NOT_HTML';

/** Why a page could not be fetched; the code is one of API.md's 422 codes. */
export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    /** What went wrong in the user's terms (the card and the add dialog say it). */
    readonly reason: AnalysisFailureReason = code === 'BLOCKED_ADDRESS'
      ? 'blocked'
      : code === 'NOT_HTML'
        ? 'not-html'
        : 'error',
    /** The HTTP status the page answered, for `http-error`. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'FetchError';
  }

  /** Whether trying again later can help: a host down or slow, a server error, rate limiting. */
  get transient(): boolean {
    if (this.reason === 'unreachable' || this.reason === 'timeout') return true;
    return (
      this.reason === 'http-error' &&
      this.status !== null &&
      (this.status >= 500 || this.status === 429 || this.status === 408)
    );
  }
}

export type Lookup = (hostname: string) => Promise<LookupAddress[]>;

export interface FetcherOptions {
  /** `FETCH_ALLOW_PRIVATE`: lifts only the address check (intranets, tests on 127.0.0.1). */
  allowPrivate?: boolean;
  /** Whole fetch, redirects included. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Name resolution seam; defaults to the system resolver. */
  lookup?: Lookup;
  /** Which resolved addresses may be connected to; defaults to public unicast only. */
  addressPolicy?: (address: string) => boolean;
}

export interface FetchedPage {
  /** Final URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  /** HTML decoded to a string; null for other content types (the body is then not read). */
  html: string | null;
  /** The body was longer than `maxBytes`; only the first `maxBytes` were read. */
  truncated: boolean;
}

/** Icons are kept inline in every list answer: small ones only. */
const ICON_MAX_BYTES = 16 * 1024;
const ICON_TYPES = new Set([
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/png',
  'image/gif',
  'image/jpeg',
  'image/webp',
  'image/svg+xml',
]);

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function isHtmlType(contentType: string): boolean {
  return HTML_TYPES.has(contentType.split(';')[0]!.trim().toLowerCase());
}

/**
 * Charset from the header, else a BOM, else `<meta charset>`/http-equiv in the first 4 KB; UTF-8 by
 * default. A body whose non-ASCII bytes are all valid UTF-8 is UTF-8 whatever its meta tag says: a
 * page saved again as UTF-8 keeps its old declaration, and text in a legacy charset is practically
 * never valid UTF-8.
 */
export function decodeHtml(body: Buffer, contentType: string): string {
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
  let charset = fromHeader;
  if (!charset) {
    if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) charset = 'utf-8';
    else if (body[0] === 0xff && body[1] === 0xfe) charset = 'utf-16le';
    else if (body[0] === 0xfe && body[1] === 0xff) charset = 'utf-16be';
  }
  if (!charset) {
    const head = body.subarray(0, 4096).toString('latin1');
    charset = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
    if (charset && looksLikeUtf8(body)) charset = 'utf-8';
  }
  const name = charset && iconv().encodingExists(charset) ? charset : 'utf-8';
  return iconv().decode(body, name);
}

/**
 * Valid UTF-8, a sequence cut by the size cap at the end aside (ASCII is too: it reads the same in
 * every charset a meta tag can name).
 */
function looksLikeUtf8(body: Buffer): boolean {
  // Up to three bytes of a sequence the cap cut off.
  for (let cut = 0; cut <= 3 && cut < body.length; cut++) if (isUtf8(body.subarray(0, body.length - cut))) return true;
  return false;
}

/**
 * Fetches a page for analysis, safe against server-side request forgery: every address a name
 * resolves to is checked when the connection is made (so a DNS answer cannot change between check
 * and use), each redirect is followed by hand and checked the same way, bodies are capped, cookies
 * are never sent and the whole fetch has one deadline.
 */
export class PageFetcher {
  private readonly agent: Agent;
  private readonly options: Required<Omit<FetcherOptions, 'lookup' | 'addressPolicy'>>;

  constructor(options: FetcherOptions = {}) {
    this.options = {
      allowPrivate: options.allowPrivate ?? false,
      timeoutMs: options.timeoutMs ?? 10_000,
      maxBytes: options.maxBytes ?? 2 * 1024 * 1024,
      maxRedirects: options.maxRedirects ?? 5,
      userAgent: options.userAgent ?? 'LinkwiseBot/1.0 (+link preview; fetches pages users save)',
    };
    const lookup: Lookup = options.lookup ?? ((host) => dnsLookup(host, { all: true, verbatim: true }));
    const base = buildConnector({ timeout: this.options.timeoutMs });
    const allowed = this.options.allowPrivate ? () => true : (options.addressPolicy ?? isPublicAddress);
    this.agent = new Agent({
      connections: 64,
      connect: (opts, callback) => {
        const host = opts.hostname.replace(/^\[|\]$/g, '');
        const resolve = isIP(host) ? Promise.resolve([{ address: host, family: isIP(host) }]) : lookup(host);
        resolve
          .then((addresses) => {
            const usable = addresses.filter((a) => allowed(a.address));
            // Any private answer taints the name: a resolver could rotate between public and private.
            if (addresses.length === 0 || usable.length !== addresses.length) {
              throw new FetchError('BLOCKED_ADDRESS', `The address of ${host} is not allowed`);
            }
            const servername = isIP(host) ? undefined : (opts.servername ?? host);
            base({ ...opts, hostname: addresses[0]!.address, ...(servername && { servername }) }, callback);
          })
          .catch((error: unknown) => callback(error as Error, null));
      },
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  async fetch(input: string): Promise<FetchedPage> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const { url, response } = await this.follow(input, signal, 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5');
    const contentType = response.headers.get('content-type') ?? '';
    if (!isHtmlType(contentType) && contentType !== '') {
      await response.body?.cancel();
      return { url: url.href, status: response.status, contentType, html: null, truncated: false };
    }
    const { body, truncated } = await this.readCapped(response.body, signal, this.options.maxBytes);
    return {
      url: url.href,
      status: response.status,
      contentType: contentType || 'text/html',
      html: decodeHtml(body, contentType),
      truncated,
    };
  }

  /**
   * A site's icon as a `data:` URL, with the same address checks as a page; null when it is not an
   * image or is larger than `maxBytes` (cards show a letter instead).
   */
  async fetchIcon(input: string, maxBytes = ICON_MAX_BYTES): Promise<string | null> {
    const signal = AbortSignal.timeout(Math.min(this.options.timeoutMs, 5000));
    const { response } = await this.follow(input, signal, 'image/*');
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!ICON_TYPES.has(type)) {
      await response.body?.cancel();
      return null;
    }
    const { body, truncated } = await this.readCapped(response.body, signal, maxBytes);
    if (truncated || body.byteLength === 0) return null;
    return `data:${type};base64,${body.toString('base64')}`;
  }

  /** Requests `input`, following redirects by hand (each checked like the first); throws on a non-2xx answer. */
  private async follow(input: string, signal: AbortSignal, accept: string): Promise<{ url: URL; response: Response }> {
    let url = parseHttpUrl(input);
    for (let hop = 0; ; hop++) {
      let response;
      try {
        response = await fetch(url, {
          dispatcher: this.agent,
          redirect: 'manual',
          signal,
          headers: {
            'user-agent': this.options.userAgent,
            accept,
            'accept-language': 'en;q=0.9,*;q=0.5',
          },
        });
      } catch (error) {
        throw asFetchError(error);
      }
      if (REDIRECTS.has(response.status)) {
        await response.body?.cancel();
        const location = response.headers.get('location');
        if (!location) throw new FetchError('FETCH_FAILED', 'The page redirected without a location');
        if (hop >= this.options.maxRedirects)
          throw new FetchError('FETCH_FAILED', 'The page redirected too many times');
        url = parseHttpUrl(new URL(location, url).href);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new FetchError(
          'FETCH_FAILED',
          `The page answered with status ${response.status}`,
          'http-error',
          response.status,
        );
      }
      return { url, response };
    }
  }

  private async readCapped(
    stream: ReadableStream<Uint8Array> | null,
    signal: AbortSignal,
    maxBytes: number,
  ): Promise<{ body: Buffer; truncated: boolean }> {
    if (!stream) return { body: Buffer.alloc(0), truncated: false };
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = stream.getReader();
    try {
      for (;;) {
        if (signal.aborted) throw new FetchError('FETCH_FAILED', 'The page took too long to load', 'timeout');
        const { done, value } = await reader.read();
        if (done) return { body: Buffer.concat(chunks), truncated: false };
        const room = maxBytes - size;
        if (value.byteLength >= room) {
          chunks.push(value.subarray(0, room));
          await reader.cancel();
          return { body: Buffer.concat(chunks), truncated: true };
        }
        chunks.push(value);
        size += value.byteLength;
      }
    } catch (error) {
      throw asFetchError(error);
    }
  }
}

function parseHttpUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new FetchError('FETCH_FAILED', 'The address is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError('BLOCKED_ADDRESS', 'Only http and https addresses can be analysed');
  }
  if (url.username || url.password)
    throw new FetchError('BLOCKED_ADDRESS', 'Addresses with credentials are not fetched');
  return url;
}

function asFetchError(error: unknown): FetchError {
  if (error instanceof FetchError) return error;
  let cause: unknown = error;
  while (cause instanceof Error) {
    if (cause instanceof FetchError) return cause;
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError' || errno(cause) === 'UND_ERR_CONNECT_TIMEOUT') {
      return new FetchError('FETCH_FAILED', 'The page took too long to load', 'timeout');
    }
    if (UNREACHABLE.has(errno(cause) ?? '')) {
      return new FetchError('FETCH_FAILED', 'The site could not be reached', 'unreachable');
    }
    cause = cause.cause;
  }
  return new FetchError('FETCH_FAILED', 'The page could not be fetched');
}

/** Socket and resolver errors that mean "nobody answered at this address". */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'UND_ERR_SOCKET',
]);

function errno(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
