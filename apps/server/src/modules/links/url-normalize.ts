import normalizeUrl from 'normalize-url';

/**
 * The key two saved URLs are compared by when detecting duplicates: scheme and `www.` ignored,
 * host lower-cased, default ports, fragments (except `#/` and `#!` app routes), trailing slashes
 * and tracking parameters (utm_*, fbclid, gclid, …) removed, query parameters sorted.
 */
export function duplicateKey(url: string): string {
  const keepHash = /#[!/]/.test(url);
  return normalizeUrl(url, {
    stripProtocol: true,
    stripWWW: true,
    stripHash: !keepHash,
    removeTrailingSlash: true,
    removeSingleSlash: true,
    sortQueryParameters: true,
    removeQueryParameters: [
      /^utm_\w+/i,
      'fbclid',
      'gclid',
      'dclid',
      'msclkid',
      'mc_cid',
      'mc_eid',
      'igshid',
      'ref_src',
    ],
    removeDirectoryIndex: false,
    stripAuthentication: true,
  });
}

/** The host shown as a title until analysis finds a better one. */
export function hostTitle(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}
