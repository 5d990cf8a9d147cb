import type { MouseEvent, ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { focusRegion } from '../lib/focus-rescue';
import { FALLBACK_CONFIG, useAppConfig } from '../lib/shared-queries';

/** Scrolls smoothly to a landing section and puts its hash in the address. */
export function scrollToSection(id: string): void {
  const section = document.getElementById(id);
  if (!section) return;
  section.scrollIntoView({ behavior: 'smooth', block: 'start' });
  // The keyboard follows the view: the next Tab starts in the section, not back where the link was.
  focusRegion(section);
  window.history.replaceState(window.history.state, '', `#${id}`);
}

const COPYRIGHT_YEAR = 2025;
const SECTIONS = [
  ['features', 'Features'],
  ['pricing', 'Pricing'],
  ['extensions', 'Extensions'],
] as const;
const COMPANY = [
  ['/about', 'About'],
  ['/contact', 'Help Center'],
  ['/security', 'Security'],
] as const;
const LEGAL = [
  ['/privacy', 'Privacy Policy'],
  ['/terms', 'Terms of Service'],
] as const;

export function SiteFooter() {
  const { pathname } = useLocation();
  const config = useAppConfig().data ?? FALLBACK_CONFIG;
  const section = (id: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (pathname !== '/') return;
    event.preventDefault();
    scrollToSection(id);
  };
  const link = 'text-sm text-slate-300 hover:text-white';
  const columns: { title: string; items: ReactNode[] }[] = [
    {
      title: 'Product',
      items: [
        ...SECTIONS.map(([id, label]) => (
          <a key={id} href={`/#${id}`} onClick={section(id)} className={link}>
            {label}
          </a>
        )),
        <Link key="status" to="/status" className={link}>
          Status
        </Link>,
      ],
    },
    {
      title: 'Company',
      items: COMPANY.map(([to, label]) => (
        <Link key={to} to={to} className={link}>
          {label}
        </Link>
      )),
    },
    {
      title: 'Legal',
      items: [
        ...LEGAL.map(([to, label]) => (
          <Link key={to} to={to} className={link}>
            {label}
          </Link>
        )),
        <a key="mail" href={`mailto:${config.supportEmail}`} className={link}>
          {config.supportEmail}
        </a>,
      ],
    },
  ];
  return (
    <footer className="bg-slate-900 text-slate-300 dark:bg-black">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">Linkwise</p>
          <p className="mt-2 text-sm text-slate-300">Save, organise and find your links again by meaning.</p>
        </div>
        {columns.map((c) => (
          <nav key={c.title} aria-label={c.title}>
            <p className="font-semibold text-white">{c.title}</p>
            <ul className="mt-3 space-y-2">
              {c.items.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="border-t border-slate-800 py-6 text-center text-sm text-slate-400">
        © {COPYRIGHT_YEAR} {config.operatorName}. All rights reserved.
      </p>
    </footer>
  );
}
