import { BUILT_CHROME_EXTENSION_ID } from '@linkwise/contract';

/**
 * The origins of the extensions allowed to call the API cross-origin: the configured ids and the
 * built Chrome package's fixed id. Any other extension (or web page) gets no CORS headers, so a
 * stranger's extension cannot read the API with a user's token even if it obtained one.
 */
export function extensionOrigins(configuredIds: readonly string[]): Set<string> {
  const origins = new Set<string>([`chrome-extension://${BUILT_CHROME_EXTENSION_ID}`]);
  for (const id of configuredIds) {
    // Chrome and Edge ids are 32 letters; Firefox gives each installation its own UUID.
    origins.add(/^[a-p]{32}$/.test(id) ? `chrome-extension://${id}` : `moz-extension://${id}`);
  }
  return origins;
}
