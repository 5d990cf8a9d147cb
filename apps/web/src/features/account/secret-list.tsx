import { Copy, Download } from 'lucide-react';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { copySecret } from '../../lib/clipboard';

/** Secrets shown once (recovery codes, a new API token): copy and, for several, download as a file. */
export function SecretList({ values, label, filename }: { values: string[]; label: string; filename?: string }) {
  const text = values.join('\n');
  const copy = async () => {
    if (await copySecret(text)) toast.success('Copied');
    else toast.error('Your browser did not allow copying. Select the text and copy it instead.');
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = filename ?? 'linkwise.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="space-y-3">
      <ul
        aria-label={label}
        className="grid grid-cols-1 gap-1 rounded-lg bg-slate-50 p-3 font-mono text-sm break-all sm:grid-cols-2 dark:bg-slate-800"
      >
        {values.map((v) => (
          <li key={v} className="select-all">
            {v}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          <Copy className="size-4" aria-hidden /> Copy
        </Button>
        {filename && (
          <Button variant="secondary" size="sm" onClick={download}>
            <Download className="size-4" aria-hidden /> Download
          </Button>
        )}
      </div>
    </div>
  );
}
