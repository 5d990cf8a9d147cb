import { CHROME_EXTENSION_KEY, EXTENSION_SHORTCUTS, FIREFOX_EXTENSION_ID } from '@linkwise/contract';

export type Browser = 'chrome' | 'firefox';

const ICONS = { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png', 48: 'icons/icon-48.png', 128: 'icons/icon-128.png' };

/**
 * One manifest per browser from one description. Permissions are the fewest that work: activeTab
 * (the tab being saved, only when the user acts), storage, contextMenus, scripting (the in-page
 * confirmation and the login fill, under activeTab), alarms (offline retries). No `tabs`,
 * `history` or all-sites access; the server's origin is an optional host permission asked for on
 * Connect where the browser needs it.
 */
export function manifest(browser: Browser, version: string, options: { key?: boolean } = {}): Record<string, unknown> {
  const common = {
    manifest_version: 3,
    name: 'Linkwise',
    short_name: 'Linkwise',
    version,
    description: 'Save any page to your Linkwise library with one shortcut, and sign in to sites from your vault.',
    icons: ICONS,
    action: { default_popup: 'popup.html', default_title: 'Linkwise', default_icon: ICONS },
    options_ui: { page: 'options.html', open_in_tab: true },
    permissions: ['activeTab', 'storage', 'contextMenus', 'scripting', 'alarms'],
    optional_host_permissions: ['https://*/*', 'http://localhost/*', 'http://127.0.0.1/*'],
    commands: {
      'save-page': {
        suggested_key: { default: EXTENSION_SHORTCUTS[browser] },
        description: 'Save the current page to Linkwise',
      },
    },
  };
  if (browser === 'chrome') {
    return {
      ...common,
      minimum_chrome_version: '120',
      background: { service_worker: 'background.js' },
      // A server on this computer hands the token straight to the extension (no host permission).
      externally_connectable: { matches: ['http://localhost/*', 'http://127.0.0.1/*'] },
      ...(options.key !== false && { key: CHROME_EXTENSION_KEY }),
    };
  }
  return {
    ...common,
    background: { scripts: ['background.js'] },
    browser_specific_settings: {
      gecko: {
        id: FIREFOX_EXTENSION_ID,
        strict_min_version: '140.0',
        data_collection_permissions: { required: ['none'] },
      },
      gecko_android: { strict_min_version: '142.0' },
    },
  };
}
