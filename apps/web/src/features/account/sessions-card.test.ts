import { describe, expect, it } from 'vitest';
import { deviceHint, lastUse } from './sessions-card';

describe('device hint', () => {
  it('names the browser and system, never the raw user agent', () => {
    expect(
      deviceHint(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
      ),
    ).toBe('Chrome on Windows');
    expect(deviceHint('Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0')).toBe(
      'Firefox on Linux',
    );
    expect(deviceHint(null)).toBeUndefined();
    expect(deviceHint('curl/8.0')).toBeUndefined();
  });
});

describe('last use', () => {
  it('says an API token no script has used yet was never used; a sign-in is a use', () => {
    const at = '2026-11-29T10:00:00.000Z';
    expect(lastUse({ kind: 'api', createdAt: at, lastUsedAt: at })).toBe('never used');
    expect(lastUse({ createdAt: at, lastUsedAt: at })).toBe('never used');
    expect(lastUse({ kind: 'web', createdAt: at, lastUsedAt: at })).toMatch(/^last used /);
    expect(lastUse({ kind: 'api', createdAt: at, lastUsedAt: '2026-11-30T10:00:00.000Z' })).toMatch(/^last used /);
  });
});
