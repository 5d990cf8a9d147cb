import { ImportFormatNames, ImportFormats, type Import, type ImportPreview } from '@linkwise/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Download, FileUp, Upload } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from '../../lib/toast';
import { Button, buttonClass } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api';
import { useSubscriptionStatus } from '../../lib/shared-queries';
import DataExportSection from './data-export-section';
import { cancelImport, download, getImport, previewImport, startImport, type ImportChoices } from './import-api';

const card = 'rounded-2xl border border-slate-200 bg-white p-5 sm:p-6 dark:border-slate-800 dark:bg-slate-900';
const label = 'text-sm font-medium text-slate-700 dark:text-slate-200';
const running = (i: Import | undefined) => i?.status === 'queued' || i?.status === 'running';

function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: [T, string][];
  onChange: (v: T) => void;
}) {
  return (
    <fieldset>
      <legend className={label}>{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
        {options.map(([v, text]) => (
          <label key={v} className="flex items-center gap-2 text-sm">
            <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} />
            {text}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Before anything is sent: how much of the file the plan can take (after, the report says it too). */
function PlanRoom() {
  const status = useSubscriptionStatus().data;
  if (!status || status.hasUnlimitedLinks || status.remainingLinks === null) return null;
  const room = status.remainingLinks;
  return (
    <p
      role="status"
      className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      {room === 0
        ? `Your Free plan is full (${status.linkLimit} links): nothing from this file will be saved. `
        : `Your Free plan has room for ${room} more ${room === 1 ? 'link' : 'links'}: the file's links past those are skipped (the report lists them). `}
      <Link to="/pricing" className="font-medium underline">
        Upgrade to Pro
      </Link>{' '}
      to import everything.
    </p>
  );
}

const rowState = (row: ImportPreview['rows'][number]) =>
  row.isRead ? 'Read' : row.isReadLater ? 'Read later' : 'Unread';
const rowSaved = (row: ImportPreview['rows'][number]) =>
  row.createdAt ? new Date(row.createdAt).toLocaleDateString() : 'Now';

/** What the import will do with an item whose address is already saved. */
function DuplicateNote({ row, fill }: { row: ImportPreview['rows'][number]; fill: boolean }) {
  if (!row.duplicate) return null;
  const text =
    row.duplicate === 'file'
      ? 'Appears earlier in this file: skipped'
      : fill
        ? 'Already in your library: only its empty fields are filled'
        : 'Already in your library: skipped';
  return <div className="text-xs text-amber-700 dark:text-amber-400">{text}</div>;
}

function PreviewTable({ preview, fill }: { preview: ImportPreview; fill: boolean }) {
  const caption = `The first ${preview.rows.length} ${preview.rows.length === 1 ? 'item' : 'items'} of the file, as they will be saved`;
  return (
    <>
      {/* A phone gets each item as a short card: five columns do not fit its width. */}
      <div className="mt-4 sm:hidden">
        <p className="pb-2 text-xs text-slate-600 dark:text-slate-400">{caption}</p>
        <ul aria-label="Preview" className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
          {preview.rows.map((row, i) => (
            <li key={i} className="py-2">
              <div className="truncate font-medium">{row.title || row.url}</div>
              <div className="truncate text-xs text-slate-500 dark:text-slate-400">{row.url}</div>
              <div className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                {[row.category, row.tags.join(', '), rowState(row), rowSaved(row)].filter(Boolean).join(' · ')}
              </div>
              {row.problem && <div className="text-xs text-red-600 dark:text-red-400">Skipped: {row.problem}</div>}
              <DuplicateNote row={row} fill={fill} />
            </li>
          ))}
        </ul>
      </div>
      <PreviewGrid preview={preview} caption={caption} fill={fill} />
    </>
  );
}

function PreviewGrid({ preview, caption, fill }: { preview: ImportPreview; caption: string; fill: boolean }) {
  return (
    <div className="mt-4 hidden overflow-x-auto sm:block">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="pb-2 text-left text-xs text-slate-600 caption-top dark:text-slate-400">{caption}</caption>
        <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
          <tr>
            <th className="py-2 pr-3">Title</th>
            <th className="py-2 pr-3">Category</th>
            <th className="py-2 pr-3">Tags</th>
            <th className="py-2 pr-3">State</th>
            <th className="py-2">Saved</th>
          </tr>
        </thead>
        <tbody>
          {preview.rows.map((row, i) => (
            <tr key={i} className="border-t border-slate-100 align-top dark:border-slate-800">
              <td className="max-w-64 py-2 pr-3">
                <div className="truncate font-medium">{row.title || row.url}</div>
                <div className="truncate text-xs text-slate-500 dark:text-slate-400">{row.url}</div>
                {row.problem && <div className="text-xs text-red-600 dark:text-red-400">Skipped: {row.problem}</div>}
                <DuplicateNote row={row} fill={fill} />
              </td>
              <td className="py-2 pr-3">{row.category ?? '—'}</td>
              <td className="py-2 pr-3">{row.tags.join(', ') || '—'}</td>
              <td className="py-2 pr-3">{rowState(row)}</td>
              <td className="py-2">{rowSaved(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Counts({ item }: { item: Import }) {
  const counts: [string, number][] = [
    ['Created', item.created],
    ['Updated', item.updated],
    ['Duplicates', item.duplicates],
    ['Skipped', item.skipped],
    ['Failed', item.failed],
  ];
  return (
    <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5">
      {counts.map(([name, n]) => (
        <div key={name} className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800">
          <dt className="text-xs text-slate-500 dark:text-slate-400">{name}</dt>
          <dd className="text-lg font-semibold" data-testid={`import-${name.toLowerCase()}`}>
            {n.toLocaleString()}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Progress({ item, onCancel }: { item: Import; onCancel: () => void }) {
  const total = item.total ?? 0;
  const percent = total > 0 ? Math.round((item.processed / total) * 100) : 0;
  const live = running(item);
  return (
    <section aria-labelledby="progress" className={card}>
      <h2 id="progress" className="text-lg font-semibold">
        {live
          ? 'Importing'
          : item.status === 'done'
            ? 'Import finished'
            : item.status === 'canceled'
              ? 'Import canceled'
              : 'Import stopped'}
        <span className="ml-2 text-sm font-normal text-slate-500 dark:text-slate-400">
          {item.fileName} · {ImportFormatNames[item.format]}
        </span>
      </h2>
      <div className="mt-4">
        <div
          role="progressbar"
          aria-label="Import progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={live ? percent : 100}
          className="h-3 w-full overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
        >
          <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${live ? percent : 100}%` }} />
        </div>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          {item.total === null
            ? 'Reading the file…'
            : `${item.processed.toLocaleString()} of ${item.total.toLocaleString()} items`}
          {item.created > 0 && ` · ${item.analysed.toLocaleString()} of ${item.created.toLocaleString()} analysed`}
        </p>
      </div>
      <Counts item={item} />
      {item.message && item.status === 'failed' && (
        <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-400">
          {item.message} Links imported before this point are kept.
        </p>
      )}
      {item.errors.some((e) => e.reason.startsWith('Over the Free plan')) && (
        <p className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-100">
          Some links were not imported: your Free plan is full.{' '}
          <Link to="/pricing" className="font-semibold underline">
            Upgrade to Pro
          </Link>{' '}
          and import the file again; links already saved are skipped.
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        {live ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel import
          </Button>
        ) : (
          <>
            <Link to="/dashboard" className={buttonClass('primary')}>
              Go to your links
            </Link>
            {(item.duplicates > 0 || item.skipped > 0 || item.failed > 0 || item.errors.length > 0) && (
              <Button
                variant="secondary"
                onClick={() =>
                  void download(`/api/import/${item.id}/report`, 'import-report.csv').catch((e: unknown) =>
                    toast.error(errorMessage(e, 'The report could not be downloaded.')),
                  )
                }
              >
                <Download className="size-4" aria-hidden /> Download report (CSV)
              </Button>
            )}
          </>
        )}
      </div>
      {!live && item.errors.length > 0 && (
        <div className="mt-6">
          <h3 className="text-sm font-semibold">Not imported</h3>
          <ul className="mt-2 max-h-80 divide-y divide-slate-100 overflow-y-auto text-sm dark:divide-slate-800">
            {item.errors.map((e) => (
              <li key={e.index} className="py-2">
                <span className="block truncate text-slate-800 dark:text-slate-200">{e.url || '(no address)'}</span>
                <span className="text-slate-500 dark:text-slate-400">
                  Item {e.index + 1}: {e.reason}
                </span>
              </li>
            ))}
          </ul>
          {item.errors.length >= 100 && (
            <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
              The first 100 are listed; the report holds every one.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** /import: choose a file, see what it holds and how it maps, import it with progress, read the report. */
export default function ImportPage() {
  const [params, setParams] = useSearchParams();
  const importId = params.get('id');
  const queryClient = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [choices, setChoices] = useState<ImportChoices>({
    format: 'auto',
    categoryFrom: 'innermost',
    duplicates: 'skip',
  });
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [uploading, setUploading] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const [current, setCurrent] = useState<Import | undefined>();
  const timer = useRef<number | undefined>(undefined);

  // Preview again when the file or a choice that changes the mapping changes.
  useEffect(() => {
    if (!file) return;
    let stale = false;
    setPreviewing(true);
    setPreviewError(null);
    previewImport(file, choices)
      .then((p) => !stale && setPreview(p))
      .catch((e: unknown) => {
        if (stale) return;
        setPreview(null);
        setPreviewError(errorMessage(e, 'This file could not be read.'));
      })
      .finally(() => !stale && setPreviewing(false));
    return () => {
      stale = true;
    };
  }, [file, choices]);

  // The import in the address survives a reload: poll it while it runs.
  const poll = useCallback(
    async (id: string) => {
      try {
        const item = await getImport(id);
        setCurrent(item);
        if (running(item)) timer.current = window.setTimeout(() => void poll(id), 1000);
        else void queryClient.invalidateQueries();
      } catch (e) {
        toast.error(errorMessage(e, 'The import could not be found.'));
        setParams({});
      }
    },
    [queryClient, setParams],
  );
  useEffect(() => {
    window.clearTimeout(timer.current);
    if (importId) void poll(importId);
    else setCurrent(undefined);
    return () => window.clearTimeout(timer.current);
  }, [importId, poll]);

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    setFile(chosen);
    setPreview(null);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };
  const start = async () => {
    if (!file) return;
    setUploading(0);
    try {
      const { id } = await startImport(file, choices, setUploading);
      setFile(null);
      setPreview(null);
      setParams({ id });
    } catch (e) {
      toast.error(errorMessage(e, 'The file could not be uploaded.'));
    } finally {
      setUploading(null);
    }
  };
  const cancel = async () => {
    if (!importId) return;
    try {
      await cancelImport(importId);
      void poll(importId);
    } catch (e) {
      toast.error(errorMessage(e, 'The import could not be canceled.'));
    }
  };

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-6">
      <div>
        <h1 className="text-2xl font-bold sm:text-3xl">Import links</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Bring your library from a browser (Chrome, Edge, Firefox, Safari, Brave), Pocket, Raindrop, Instapaper,
          Omnivore, Linkwarden, Karakeep, linkding, a Linkwise export, any CSV file with a url column, or a text file of
          addresses, one per line. Links you already saved are never doubled.
        </p>
      </div>

      {current && <Progress item={current} onCancel={() => void cancel()} />}

      {!running(current) && (
        <section aria-labelledby="choose" className={card}>
          <h2 id="choose" className="text-lg font-semibold">
            {current ? 'Import another file' : 'Choose a file'}
          </h2>
          <label
            htmlFor={inputId}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            className={`mt-4 flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed p-8 text-center text-sm focus-within:ring-2 focus-within:ring-brand-500 ${dragging ? 'border-brand-500 bg-brand-50 dark:bg-brand-600/10' : 'border-slate-300 dark:border-slate-700'}`}
          >
            <FileUp className="size-8 text-slate-400" aria-hidden />
            <span className="font-medium">{file ? file.name : 'Drop a file here, or choose one'}</span>
            <span className="text-xs text-slate-500 dark:text-slate-400">
              HTML bookmarks, CSV, JSON or ZIP exports, up to 100 MB
            </span>
            <input
              id={inputId}
              type="file"
              accept=".html,.htm,.csv,.json,.zip,.txt,text/html,text/csv,text/plain,application/json,application/zip"
              className="sr-only"
              onChange={(e) => choose(e.target.files?.[0])}
            />
          </label>

          {file && (
            <div className="mt-6 space-y-5">
              <div className="flex flex-wrap items-end gap-4">
                <label className="flex min-w-0 max-w-full flex-col gap-1">
                  <span className={label}>Format</span>
                  <select
                    className="max-w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-800"
                    value={choices.format}
                    onChange={(e) => setChoices({ ...choices, format: e.target.value })}
                  >
                    <option value="auto">Detect from the file</option>
                    {ImportFormats.map((f) => (
                      <option key={f} value={f}>
                        {ImportFormatNames[f]}
                      </option>
                    ))}
                  </select>
                </label>
                <p className="text-sm" aria-live="polite">
                  {previewing ? (
                    <Spinner label="Reading the file…" />
                  ) : preview ? (
                    <>
                      Detected: <strong data-testid="detected-format">{preview.formatName}</strong>
                    </>
                  ) : null}
                </p>
              </div>
              {previewError && (
                <p role="alert" className="text-sm text-red-700 dark:text-red-400">
                  {previewError}
                </p>
              )}
              {preview?.hasFolders && (
                <Choice
                  legend="Folders become"
                  name="categoryFrom"
                  value={choices.categoryFrom}
                  onChange={(categoryFrom) => setChoices({ ...choices, categoryFrom })}
                  options={[
                    ['innermost', 'Category: the innermost folder'],
                    ['top', 'Category: the top folder'],
                    ['none', 'Tags (no category)'],
                  ]}
                />
              )}
              <Choice
                legend="Links already in your library"
                name="duplicates"
                value={choices.duplicates}
                onChange={(duplicates) => setChoices({ ...choices, duplicates })}
                options={[
                  ['skip', 'Skip them'],
                  ['fill-empty', 'Fill in their empty fields'],
                ]}
              />
              {preview && <PlanRoom />}
              {preview && preview.rows.length > 0 && (
                <PreviewTable preview={preview} fill={choices.duplicates === 'fill-empty'} />
              )}
              <div className="flex flex-wrap items-center gap-3">
                <Button onClick={() => void start()} disabled={!preview || uploading !== null}>
                  <Upload className="size-4" aria-hidden /> Import
                </Button>
                {uploading !== null && (
                  <span className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
                    Uploading… {Math.round(uploading * 100)}%
                  </span>
                )}
              </div>
            </div>
          )}
        </section>
      )}

      {/* The account menu's "Import / Export" lands here: the exports are here too, as on Profile. */}
      <DataExportSection onImportPage />
    </div>
  );
}
