// Plain values only (no schema): the extension's content script imports these and nothing else.

/**
 * The public key in the Chrome package's manifest (`key`): it fixes the unpacked extension's id, so
 * a self-hoster's server can admit it by default. Only its id matters; no private key is kept.
 */
export const CHROME_EXTENSION_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAyxUCDV83C2HtEQ8jtcVjMGhMiFlAASG6nEb4riUJ49YRd/kOB3Wgzh/xqI9BNOL77KRC1l6Z+9Vkitd+quHRL32q9C3aMpquOb0Ex4cJWiIE0iXWRvXOap95i68McIjbS0ErVIVa23tXuoReICAQPemIOHNo7KM4Iq7wUpeZ6J2HMf4+RvytZfQeHloM3pG/xpfcZXk+xjhuRRfnQ+EPYtZgKsrTy7PYgr/eWS7QmdRFfjgO8hMJ9DjT/VFkq2y/RvI3LO6NYsNz8KubyTi9sLLfUUSJH+tWWxYWaGozojd2EN+tnr1KR4KuyI5Y1ww5tFoHU3OwyHBnigLs4ITMgQIDAQAB';

/** The id Chrome and Edge give the built package (derived from `CHROME_EXTENSION_KEY`). */
export const BUILT_CHROME_EXTENSION_ID = 'genhakgiknpkegpfiickggmgmniiblko';

/** The Firefox package's add-on id (`browser_specific_settings.gecko.id`). */
export const FIREFOX_EXTENSION_ID = 'extension@linkwise.app';

/**
 * Default save shortcuts: Firefox keeps Ctrl+Shift+H for its History window, and Alt+Shift+H opens its
 * Help menu (Alt with a menu's letter), so Firefox gets a letter no menu of it uses.
 */
export const EXTENSION_SHORTCUTS = { chrome: 'Ctrl+Shift+H', firefox: 'Alt+Shift+K' } as const;

/** The message the sign-in page hands the extension its token in (never through the address bar). */
export const EXTENSION_TOKEN_MESSAGE = 'linkwise-extension-token';

/** Files the server offers for loading the extension by hand (built by `npm run build`). */
export const EXTENSION_DOWNLOADS = {
  chrome: 'linkwise-chrome.zip',
  firefox: 'linkwise-firefox.zip',
} as const;
