import type { BackupListResponse } from '@linkwise/contract';
import { useQuery } from '@tanstack/react-query';
import { Archive, Download, KeyRound, Upload } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../lib/toast';
import { Button, buttonClass } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { api, errorMessage } from '../../lib/api';
import { useAuth } from '../../lib/auth-store';
import { formatDate } from '../../lib/format';
import { openCredentials, useVault } from '../../lib/vault';
import { download, saveBlob } from './import-api';

const card = 'rounded-2xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900';

const csvCell = (value: string) => `"${(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value).replace(/"/g, '""')}"`;

/**
 * Every credential in plain text, decrypted here in the browser with the unlocked vault key: the
 * server never sees them. A separate file, after a warning.
 */
async function exportCredentials(userId: string): Promise<number> {
  const key = useVault.getState().key;
  if (!key) throw new Error('locked');
  const lines = ['url,title,username,password,note'];
  for (let page = 1; ; page++) {
    const { data } = await api.listLinks({ query: { hasCredentials: 'true', limit: 100, page } });
    for (const link of data) {
      for (const c of await openCredentials(key, userId, link.id, link.credentials)) {
        if (c.unreadable) continue;
        lines.push([link.url, link.title, c.username, c.password, c.note].map(csvCell).join(','));
      }
    }
    if (data.length < 100) break;
  }
  saveBlob(new Blob([`\uFEFF${lines.join('\r\n')}\r\n`], { type: 'text/csv' }), 'linkwise-credentials-PLAINTEXT.csv');
  return lines.length - 1;
}

/** Profile: export every link, the automatic backups (Pro), the import screen, plaintext credentials. */
/** Profile's data card; on /import itself (`onImportPage`) it leaves out the way to the import. */
export default function DataExportSection({ onImportPage = false }: { onImportPage?: boolean }) {
  const user = useAuth((s) => s.user);
  const vault = useVault();
  const [busy, setBusy] = useState<string | null>(null);
  const [warn, setWarn] = useState(false);
  const backups = useQuery({
    queryKey: ['backups'],
    queryFn: async (): Promise<BackupListResponse> => api.listBackups(),
  });
  if (!user) return null;

  const exportAs = async (format: 'json' | 'html' | 'csv') => {
    setBusy(format);
    try {
      await download(`/api/export?format=${format}`, `linkwise-export.${format}`);
    } catch (e) {
      toast.error(errorMessage(e, 'The export could not be downloaded.'));
    } finally {
      setBusy(null);
    }
  };
  const credentials = async () => {
    setBusy('credentials');
    try {
      const n = await exportCredentials(user.id);
      toast.success(`${n} credential${n === 1 ? '' : 's'} exported. Delete the file once you no longer need it.`);
    } catch (e) {
      toast.error(errorMessage(e, 'The credentials could not be exported.'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="data" className={card}>
      <h2 id="data" className="text-lg font-semibold">
        {onImportPage ? 'Export and backups' : 'Import, export and backups'}
      </h2>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        Download every link you saved. JSON keeps everything and imports back into Linkwise; HTML opens in any browser
        and bookmark manager; CSV opens in spreadsheets. Saved credentials stay encrypted in the JSON file.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        {(['json', 'html', 'csv'] as const).map((format) => (
          <Button key={format} variant="secondary" disabled={busy !== null} onClick={() => void exportAs(format)}>
            <Download className="size-4" aria-hidden /> Export {format.toUpperCase()}
          </Button>
        ))}
        {!onImportPage && (
          <Link to="/import" className={buttonClass('secondary')}>
            <Upload className="size-4" aria-hidden /> Import links
          </Link>
        )}
      </div>

      <div className="mt-6">
        <h3 className="flex items-center gap-2 text-sm font-semibold">
          <Archive className="size-4" aria-hidden /> Automatic backups
        </h3>
        {backups.data && !backups.data.enabled ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            Pro keeps a backup of your library every {backups.data.everyDays} days.{' '}
            <Link to="/pricing" className="font-medium text-brand-700 underline dark:text-brand-100">
              Upgrade to Pro
            </Link>
          </p>
        ) : backups.data && backups.data.data.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            The first backup is written within the hour; one every {backups.data.everyDays} days, the last{' '}
            {backups.data.keep} kept.
          </p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100 text-sm dark:divide-slate-800">
            {backups.data?.data.map((b) => (
              <li key={b.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  {formatDate(b.createdAt)} · {(b.bytes / 1024).toFixed(0)} kB
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() =>
                    void download(`/api/backups/${b.id}`, `linkwise-backup-${b.id}.json`).catch((e: unknown) =>
                      toast.error(errorMessage(e, 'The backup could not be downloaded.')),
                    )
                  }
                >
                  <Download className="size-4" aria-hidden /> Download
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>

      {vault.status !== 'absent' && (
        <div className="mt-6">
          <h3 className="flex items-center gap-2 text-sm font-semibold">
            <KeyRound className="size-4" aria-hidden /> Credentials in plain text
          </h3>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            Decrypted in this browser with your unlocked vault, saved as a separate file. Linkwise never sees them.
          </p>
          <Button
            className="mt-2"
            variant="secondary"
            disabled={busy !== null}
            onClick={() => (vault.status === 'unlocked' ? setWarn(true) : vault.openPrompt())}
          >
            {vault.status === 'unlocked' ? 'Export credentials…' : 'Unlock the vault to export credentials'}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={warn}
        onOpenChange={setWarn}
        title="Export passwords in plain text?"
        description="The file will hold every saved username and password unencrypted. Anyone who opens it can read them. Keep it somewhere safe and delete it when you are done."
        confirmLabel="Export in plain text"
        destructive
        onConfirm={() => void credentials()}
      />
    </section>
  );
}
