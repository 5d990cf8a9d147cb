import { Dialog } from '../../../components/ui/dialog';
import { SHORTCUTS } from '../shortcuts';

/** The `?` dialog: every dashboard shortcut. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Keyboard shortcuts">
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        They work anywhere on the page except while typing.
      </p>
      <dl className="divide-y divide-slate-100 dark:divide-slate-800">
        {SHORTCUTS.map(({ keys, action }) => (
          <div key={action} className="flex items-center justify-between gap-4 py-2 text-sm">
            <dt>{action}</dt>
            <dd className="flex gap-1">
              {keys.map((key) => (
                <kbd
                  key={key}
                  className="min-w-7 rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 text-center font-mono text-xs dark:border-slate-600 dark:bg-slate-800"
                >
                  {key}
                </kbd>
              ))}
            </dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
