import { describe, expect, it } from 'vitest';
import { isLoopback, originPattern, parseServerAddress } from './env.js';
import { backoff } from './queue.js';
import { Limits, Messages } from '@linkwise/contract';
import { outcomeText, saveLink } from './save.js';

describe('server address', () => {
  it('accepts https anywhere and plain http only on this computer', () => {
    expect(parseServerAddress('https://links.example.com/dashboard?x=1')).toEqual({
      origin: 'https://links.example.com',
    });
    expect(parseServerAddress('links.example.com')).toEqual({ origin: 'https://links.example.com' });
    expect(parseServerAddress(' http://localhost:3000/ ')).toEqual({ origin: 'http://localhost:3000' });
    expect(parseServerAddress('http://127.0.0.1:8080')).toEqual({ origin: 'http://127.0.0.1:8080' });
    expect(parseServerAddress('http://links.example.com')).toEqual({
      error: 'Use https:// for a server on another computer (plain http only for localhost).',
    });
  });

  it('explains what is wrong with anything else', () => {
    expect(parseServerAddress('')).toEqual({ error: 'Enter the address of your Linkwise server.' });
    expect(parseServerAddress('ftp://files.example.com')).toEqual({ error: 'The address must start with https://' });
    expect(parseServerAddress('https://user:secret@links.example.com')).toEqual({
      error: 'Leave the user name and password out of the address.',
    });
    for (const typed of ['https://exa mple.com', 'not a url at all']) {
      expect(parseServerAddress(typed)).toEqual({
        error: 'This is not a web address. Example: https://links.example.com',
      });
    }
  });

  it('asks for the server host only, whatever its port', () => {
    expect(originPattern('http://127.0.0.1:4123')).toBe('http://127.0.0.1/*');
    expect(originPattern('https://links.example.com')).toBe('https://links.example.com/*');
    expect(isLoopback('http://localhost:3000')).toBe(true);
    expect(isLoopback('https://links.example.com')).toBe(false);
  });
});

describe('offline retries', () => {
  it('doubles from 30 s up to 30 min, with bounded jitter', () => {
    expect([1, 2, 3, 4].map((n) => backoff(n, 0.5))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(backoff(20, 0.5)).toBe(30 * 60_000);
    expect(backoff(1, 0)).toBe(24_000);
    expect(backoff(1, 1)).toBe(36_000);
  });
});

describe('save confirmations', () => {
  it('names each outcome in one short sentence', () => {
    expect(outcomeText({ kind: 'already', linkId: 'x' })).toBe('Already saved in Linkwise');
    expect(outcomeText({ kind: 'queued' })).toMatch(/^Saved offline/);
    expect(outcomeText({ kind: 'failed', reason: 'limit', message: "You've reached your limit of 30 links" })).toBe(
      "You've reached your limit of 30 links",
    );
  });
});

describe('pages that cannot be saved', () => {
  it('tells a browser page from a web page the server would refuse, in the server’s words', async () => {
    const refused = async (url: string) => {
      const outcome = await saveLink({ url });
      return outcome.kind === 'failed' ? outcome.message : outcome.kind;
    };
    expect(await refused('chrome://settings')).toBe('Only web pages (http and https) can be saved.');
    expect(await refused('file:///home/me/notes.html')).toBe('Only web pages (http and https) can be saved.');
    expect(await refused(`https://long.example.com/${'a'.repeat(Limits.urlMax)}`)).toBe(
      `URLs can be at most ${Limits.urlMax} characters`,
    );
    expect(await refused('http://me:hunter2@intranet.example.com/page')).toBe(Messages.urlWithCredentials);
  });
});
