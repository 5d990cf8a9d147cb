import { ArrowLeft, Download, Printer } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { SiteFooter } from '../../components/site-footer';
import { Button } from '../../components/ui/button';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** Percentage of the page scrolled, for the reading progress bar. */
function useReadingProgress(): number {
  const [progress, setProgress] = useState(0);
  useEffect(() => {
    const update = () => {
      const max = document.documentElement.scrollHeight - window.innerHeight;
      setProgress(max > 0 ? Math.min(100, Math.round((window.scrollY / max) * 100)) : 100);
    };
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, []);
  return progress;
}

/** Where a section's top rests after a jump from the contents (the page's scroll padding, index.css). */
const JUMP_TOP = 80;

/**
 * The section being read: the last whose heading has reached the top of the window (just under the
 * header). A section chosen in the contents stays chosen while the jump to it holds, even when it is
 * too short, or too near the end, to push the next one off the top.
 */
function useActiveSection(ids: readonly string[]): [string | undefined, (id: string) => void] {
  const [active, setActive] = useState(ids[0]);
  const chosen = useRef<string | null>(null);
  const chosenAt = useRef(0);
  const update = useCallback(() => {
    const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
    if (chosen.current) {
      const top = document.getElementById(chosen.current)?.getBoundingClientRect().top;
      // A smooth jump passes other sections on its way: the choice holds while it is under way.
      const jumping = Date.now() - chosenAt.current < 1000;
      if (top !== undefined && (jumping || Math.abs(top - JUMP_TOP) <= 8 || atBottom)) {
        setActive(chosen.current);
        return;
      }
      chosen.current = null;
    }
    let current = ids[0];
    for (const id of ids) {
      const top = document.getElementById(id)?.getBoundingClientRect().top ?? Infinity;
      if (top <= JUMP_TOP + 40) current = id;
    }
    // At the very bottom the last section is the one being read, however short it is.
    if (atBottom) current = ids[ids.length - 1];
    setActive(current);
  }, [ids]);
  useEffect(() => {
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [update]);
  const choose = useCallback((id: string) => {
    chosen.current = id;
    chosenAt.current = Date.now();
    setActive(id);
  }, []);
  return [active, choose];
}

/** Legal page: contents that track scrolling, a reading progress bar, Print and Download as HTML. */
export function LegalPage({ title, updated, sections }: { title: string; updated: string; sections: LegalSection[] }) {
  const article = useRef<HTMLElement>(null);
  const ids = sections.map((s) => s.id);
  const [idsKey] = useState(ids);
  const [active, choose] = useActiveSection(idsKey);
  const progress = useReadingProgress();

  const download = () => {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${article.current?.outerHTML ?? ''}</body></html>`;
    const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.html`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <>
      <div
        role="progressbar"
        aria-label="Reading progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        className="no-print fixed left-0 top-0 z-40 h-1 bg-brand-600"
        style={{ width: `${progress}%` }}
      />
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <div className="no-print flex flex-wrap items-center justify-between gap-3">
          <Link
            to="/"
            className="inline-flex items-center gap-1 text-sm text-brand-600 hover:underline dark:text-brand-100"
          >
            <ArrowLeft className="size-4" aria-hidden /> Back to Home
          </Link>
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" onClick={() => window.print()}>
              <Printer className="size-4" aria-hidden /> Print
            </Button>
            <Button variant="secondary" size="sm" onClick={download}>
              <Download className="size-4" aria-hidden /> Download as HTML
            </Button>
          </div>
        </div>
        <div className="mt-6 lg:grid lg:grid-cols-[16rem_1fr] lg:gap-10">
          <nav aria-label="Table of contents" className="no-print mb-8 lg:sticky lg:top-24 lg:mb-0 lg:self-start">
            <p className="mb-2 text-sm font-semibold">Contents</p>
            <ol className="space-y-1 text-sm">
              {sections.map((s) => (
                <li key={s.id}>
                  <a
                    href={`#${s.id}`}
                    onClick={() => choose(s.id)}
                    aria-current={active === s.id ? 'location' : undefined}
                    className={`block rounded px-2 py-1 ${active === s.id ? 'bg-brand-50 font-medium text-brand-700 dark:bg-brand-600/20 dark:text-brand-100' : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'}`}
                  >
                    {s.title}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
          <article ref={article} className="min-w-0">
            <h1 className="text-3xl font-bold">{title}</h1>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">Last updated: {updated}</p>
            {sections.map((s) => (
              <section key={s.id} id={s.id} className="pt-8">
                <h2 className="text-xl font-semibold">{s.title}</h2>
                <div className="mt-2 space-y-3 text-slate-700 dark:text-slate-300">{s.body}</div>
              </section>
            ))}
          </article>
        </div>
      </div>
      <SiteFooter />
    </>
  );
}
