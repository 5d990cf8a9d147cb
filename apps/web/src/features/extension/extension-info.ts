import { useQuery } from '@tanstack/react-query';
import type { ExtensionInfoResponse } from '@linkwise/contract';
import { api } from '../../lib/api';

/** Store pages and downloads of the extensions; they change only with the server's configuration. */
export function useExtensionInfo() {
  return useQuery({ queryKey: ['extension-info'], queryFn: () => api.extensionInfo(), staleTime: Infinity });
}

export type InstallTarget = 'chrome' | 'edge' | 'firefox';

/** Where an install button goes: the store page when configured, else this server's install page. */
export function installHref(info: ExtensionInfoResponse | undefined, target: InstallTarget): string {
  const store = info?.stores[target] ?? (target === 'edge' ? info?.stores.chrome : null);
  return store ?? `/extension/install#${target === 'firefox' ? 'firefox' : 'chrome'}`;
}

/**
 * A bookmark that opens this server's Add Link dialog with the page's address and title, for
 * browsers without the extension (Safari, phones). Built for one origin: the bookmark runs on
 * other sites, where only an absolute address finds Linkwise.
 */
export function bookmarkletCode(origin: string): string {
  return (
    'javascript:(()=>{window.open(' +
    JSON.stringify(`${origin}/dashboard?add=`) +
    "+encodeURIComponent(location.href)+'&title='+encodeURIComponent(document.title),'_blank')})()"
  );
}
