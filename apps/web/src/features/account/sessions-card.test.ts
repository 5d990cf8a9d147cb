import { describe, expect, it } from 'vitest';
import { deviceHint } from './sessions-card';

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
