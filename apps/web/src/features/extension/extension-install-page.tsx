import { EXTENSION_SHORTCUTS } from '@linkwise/contract';
import { Bookmark, Check, Copy, Download, Globe, Puzzle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button, buttonClass } from '../../components/ui/button';
import { bookmarkletCode, useExtensionInfo } from './extension-info';

const card =
  'rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900';

function StoreOrDownload({
  store,
  storeLabel,
  download,
  downloadLabel,
}: {
  store: string | null | undefined;
  storeLabel: string;
  download: string | null | undefined;
  downloadLabel: string;
}) {
  return (
    <div className="mt-4 flex flex-wrap gap-2">
      {store && (
        <a href={store} target="_blank" rel="noreferrer" className={buttonClass('primary')}>
          {storeLabel}
        </a>
      )}
      {download ? (
        <a href={download} download className={buttonClass(store ? 'secondary' : 'primary')}>
          <Download className="size-4" aria-hidden /> {downloadLabel}
        </a>
      ) : (
        !store && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            This server has no extension package yet: its operator runs <code>npm run build</code> to make one.
          </p>
        )
      )}
    </div>
  );
}

/** The bookmarklet link: React refuses `javascript:` addresses in JSX, so it is set on the element. */
function BookmarkletLink({ code }: { code: string }) {
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    ref.current?.setAttribute('href', code);
  }, [code]);
  return (
    <a
      ref={ref}
      className={buttonClass('secondary', 'md', 'cursor-grab')}
      onClick={(e) => e.preventDefault()}
      title="Drag me to your bookmarks bar"
    >
      <Bookmark className="size-4" aria-hidden /> Save to Linkwise
    </a>
  );
}

export default function ExtensionInstallPage() {
  const { data } = useExtensionInfo();
  const origin = window.location.origin;
  const code = bookmarkletCode(origin);
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard.writeText(code).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    });
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Install the Linkwise extension</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        Save the page you are on with one shortcut, right-click any link to save it, and see at a glance whether a page
        is already in your library.
      </p>

      <section id="chrome" aria-labelledby="chrome-title" className={`${card} mt-8`}>
        <h2 id="chrome-title" className="flex items-center gap-2 text-xl font-semibold">
          <Puzzle className="size-5 text-brand-600" aria-hidden /> Chrome and Edge
        </h2>
        <StoreOrDownload
          store={data?.stores.chrome ?? data?.stores.edge}
          storeLabel="Open the store page"
          download={data?.downloads.chrome}
          downloadLabel="Download for Chrome and Edge (.zip)"
        />
        <ol className="mt-4 list-decimal space-y-1 pl-5 text-sm">
          <li>Download the package and unzip it into a folder you keep.</li>
          <li>
            Open <code>chrome://extensions</code> (Edge: <code>edge://extensions</code>) and switch on{' '}
            <strong>Developer mode</strong>.
          </li>
          <li>
            Press <strong>Load unpacked</strong> and choose the unzipped folder.
          </li>
          <li>
            In the extension&apos;s settings, enter <code>{origin}</code> as the <strong>Server address</strong> and
            press <strong>Connect</strong>.
          </li>
        </ol>
        <p className="mt-3 text-sm">
          Save a page with <kbd className="rounded border px-1.5">{EXTENSION_SHORTCUTS.chrome}</kbd>.
        </p>
      </section>

      <section id="firefox" aria-labelledby="firefox-title" className={`${card} mt-6`}>
        <h2 id="firefox-title" className="flex items-center gap-2 text-xl font-semibold">
          <Globe className="size-5 text-orange-500" aria-hidden /> Firefox
        </h2>
        <StoreOrDownload
          store={data?.stores.firefox}
          storeLabel="Open Firefox Add-ons"
          download={data?.downloads.firefox}
          downloadLabel="Download for Firefox (.zip)"
        />
        <ol className="mt-4 list-decimal space-y-1 pl-5 text-sm">
          <li>
            Open <code>about:debugging#/runtime/this-firefox</code> and press <strong>Load Temporary Add-on</strong>.
          </li>
          <li>
            Choose the downloaded .zip file. Firefox keeps it until it restarts; a signed package from Firefox Add-ons
            stays installed.
          </li>
          <li>
            In the extension&apos;s settings, enter <code>{origin}</code>, press <strong>Connect</strong> and allow
            access to this server when Firefox asks.
          </li>
        </ol>
        <p className="mt-3 text-sm">
          Save a page with <kbd className="rounded border px-1.5">{EXTENSION_SHORTCUTS.firefox}</kbd> (Firefox keeps
          Ctrl+Shift+H for its History window; change it under Add-ons › ⚙ › Manage Extension Shortcuts).
        </p>
      </section>

      <section aria-labelledby="bookmarklet-title" className={`${card} mt-6`}>
        <h2 id="bookmarklet-title" className="flex items-center gap-2 text-xl font-semibold">
          <Bookmark className="size-5 text-brand-600" aria-hidden /> Safari, phones and other browsers
        </h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Without the extension, a bookmark does the job: it opens Linkwise&apos;s Add Link dialog with the page&apos;s
          address and title filled in.
        </p>
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <BookmarkletLink code={code} />
          <Button variant="secondary" onClick={copy}>
            {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
            {copied ? 'Copied' : 'Copy bookmarklet'}
          </Button>
        </div>
        <ol className="mt-4 list-decimal space-y-1 pl-5 text-sm">
          <li>
            On a computer, drag <strong>Save to Linkwise</strong> to your bookmarks bar.
          </li>
          <li>
            On a phone, bookmark any page, then edit that bookmark and replace its address with the copied bookmarklet.
          </li>
          <li>On the page you want to keep, open that bookmark.</li>
        </ol>
      </section>
    </div>
  );
}
