import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { errorMessage } from '../../lib/api';
import { download } from './import-api';

/** The account-deletion dialog's offer to keep the links: the lossless JSON export, one click. */
export function ExportFirst() {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const exportAll = async () => {
    setBusy(true);
    setFailed(null);
    try {
      await download('/api/export?format=json', 'linkwise-export.json');
    } catch (e) {
      setFailed(errorMessage(e, 'The export could not be downloaded.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="space-y-2 text-sm text-slate-600 dark:text-slate-400">
      <p>Want to keep your links? Download them first: the file imports back into Linkwise or any browser.</p>
      <Button type="button" variant="secondary" disabled={busy} onClick={() => void exportAll()}>
        <Download className="size-4" aria-hidden />
        {busy ? 'Preparing the export…' : 'Export my links (JSON)'}
      </Button>
      {failed && (
        <p role="alert" className="text-red-700 dark:text-red-400">
          {failed}
        </p>
      )}
    </div>
  );
}
