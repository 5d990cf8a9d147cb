import { Button } from '../../../components/ui/button';

/** Links used of the plan's limit; red with an Upgrade button once no more can be added. */
export function UsageBar({
  used,
  limit,
  canAdd,
  onUpgrade,
}: {
  used: number;
  limit: number;
  canAdd: boolean;
  onUpgrade: () => void;
}) {
  const percent = Math.min(100, Math.round((used / Math.max(limit, 1)) * 100));
  return (
    <div className="mt-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="font-medium">
          {used} of {limit} links used
        </span>
        {!canAdd && (
          <Button size="sm" onClick={onUpgrade}>
            Upgrade
          </Button>
        )}
      </div>
      <div
        role="progressbar"
        aria-label="Links used"
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={used}
        className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div
          className={`h-full rounded-full ${canAdd ? 'bg-brand-600' : 'bg-red-600'}`}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
