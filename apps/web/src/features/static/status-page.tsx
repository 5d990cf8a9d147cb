import { CheckCircle2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { SiteFooter } from '../../components/site-footer';
import { FALLBACK_CONFIG, useAppConfig } from '../../lib/shared-queries';

type ServiceStatus = 'operational' | 'degraded' | 'outage';

interface Service {
  name: string;
  description: string;
  status: ServiceStatus;
  uptime: string;
  responseTime: string;
}

// Static figures (spec §9): the page is not fed by monitoring and is fixed at operational.
const SERVICES: Service[] = [
  {
    name: 'Website & API',
    description: 'Web app and REST API',
    status: 'operational',
    uptime: '99.99%',
    responseTime: '120ms',
  },
  {
    name: 'AI Content Analysis',
    description: 'Titles, descriptions, categories and tags',
    status: 'operational',
    uptime: '99.95%',
    responseTime: '850ms',
  },
  {
    name: 'Database & Search',
    description: 'Storage and semantic search',
    status: 'operational',
    uptime: '99.99%',
    responseTime: '45ms',
  },
  {
    name: 'Browser Extensions',
    description: 'Chrome, Edge and Firefox extensions',
    status: 'operational',
    uptime: '99.97%',
    responseTime: '150ms',
  },
  {
    name: 'Authentication',
    description: 'Sign-in and registration',
    status: 'operational',
    uptime: '99.99%',
    responseTime: '95ms',
  },
  {
    name: 'File Storage',
    description: 'Favicons and exports',
    status: 'operational',
    uptime: '99.98%',
    responseTime: '80ms',
  },
];

const INCIDENTS = [
  {
    date: 'March 12, 2025',
    title: 'Slow AI analysis',
    status: 'Resolved',
    duration: '45 minutes',
    description: 'An AI provider answered slowly; analyses were queued and completed.',
  },
  {
    date: 'February 3, 2025',
    title: 'Search latency',
    status: 'Resolved',
    duration: '20 minutes',
    description: 'A database index rebuild slowed search; results were unaffected.',
  },
  {
    date: 'January 18, 2025',
    title: 'Extension sign-in errors',
    status: 'Resolved',
    duration: '30 minutes',
    description: 'A configuration change rejected some extension sign-ins; it was rolled back.',
  },
];

/** Label for a service status; anything unexpected is shown as Unknown. */
export function statusLabel(status: string): string {
  switch (status) {
    case 'operational':
      return 'Operational';
    case 'degraded':
      return 'Degraded Performance';
    case 'outage':
      return 'Service Outage';
    default:
      return 'Unknown';
  }
}

function utcNow(): string {
  return new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

const box = 'rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900';

export default function StatusPage() {
  const { supportEmail } = useAppConfig().data ?? FALLBACK_CONFIG;
  const [now, setNow] = useState(utcNow);
  useEffect(() => {
    const timer = setInterval(() => setNow(utcNow()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <>
      <div className="mx-auto max-w-5xl space-y-8 px-4 py-8 sm:px-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-3xl font-bold">System Status</h1>
          <span className="inline-flex items-center gap-2 rounded-full bg-green-100 px-3 py-1 text-sm font-semibold text-green-800 dark:bg-green-900 dark:text-green-100">
            <CheckCircle2 className="size-4" aria-hidden /> All Systems Operational
          </span>
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400">Last updated: {now}</p>
        <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
          {[
            ['Uptime', '99.98%'],
            ['Avg Response', '156ms'],
            ['Links Processed', '10k+'],
            ['AI Analyses Today', '2K+'],
          ].map(([label, value]) => (
            <div key={label} className={box}>
              <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
              <dd className="mt-1 text-2xl font-bold">{value}</dd>
            </div>
          ))}
        </dl>
        <section aria-labelledby="services" className={box}>
          <h2 id="services" className="text-xl font-semibold">
            Services
          </h2>
          <ul className="mt-4 divide-y divide-slate-100 dark:divide-slate-800">
            {SERVICES.map((s) => (
              <li key={s.name} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div>
                  <h3 className="font-medium">{s.name}</h3>
                  <p className="text-sm text-slate-600 dark:text-slate-400">{s.description}</p>
                </div>
                <p className="flex flex-wrap items-center gap-3 text-sm">
                  <span>{s.uptime} uptime</span>
                  <span>{s.responseTime}</span>
                  <span className="font-medium text-green-700 dark:text-green-400">{statusLabel(s.status)}</span>
                </p>
              </li>
            ))}
          </ul>
        </section>
        <div className="grid gap-6 md:grid-cols-2">
          <section aria-labelledby="ai-metrics" className={box}>
            <h2 id="ai-metrics" className="text-lg font-semibold">
              AI Performance
            </h2>
            <ul className="mt-3 space-y-1 text-sm">
              <li>Average analysis time: 850ms</li>
              <li>Categorisation success: 98.5%</li>
              <li>Providers: two, with automatic fallback</li>
            </ul>
          </section>
          <section aria-labelledby="db-metrics" className={box}>
            <h2 id="db-metrics" className="text-lg font-semibold">
              Search &amp; Database
            </h2>
            <ul className="mt-3 space-y-1 text-sm">
              <li>Average query time: 45ms</li>
              <li>Cache hit rate: 94.2%</li>
              <li>Semantic search with text fallback</li>
            </ul>
          </section>
        </div>
        <section aria-labelledby="incidents" className={box}>
          <h2 id="incidents" className="text-xl font-semibold">
            Recent Incidents
          </h2>
          <ul className="mt-4 space-y-4">
            {INCIDENTS.map((i) => (
              <li key={i.title}>
                <p className="font-medium">
                  {i.title}{' '}
                  <span className="ml-2 rounded bg-green-100 px-2 text-xs text-green-800 dark:bg-green-900 dark:text-green-100">
                    {i.status}
                  </span>
                </p>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  {i.date} · {i.duration}
                </p>
                <p className="text-sm">{i.description}</p>
              </li>
            ))}
          </ul>
        </section>
        <div className="grid gap-6 md:grid-cols-2">
          <section aria-labelledby="infra" className={box}>
            <h2 id="infra" className="text-lg font-semibold">
              Infrastructure
            </h2>
            <ul className="mt-3 space-y-1 text-sm">
              <li>Application servers in the EU</li>
              <li>PostgreSQL with daily backups</li>
              <li>Encrypted connections everywhere</li>
            </ul>
          </section>
          <section aria-labelledby="third" className={box}>
            <h2 id="third" className="text-lg font-semibold">
              Third-Party Services
            </h2>
            <ul className="mt-3 space-y-1 text-sm">
              <li>Card payment provider</li>
              <li>Two AI providers</li>
              <li>Captcha provider</li>
            </ul>
          </section>
        </div>
        <p className="text-sm">
          <a
            className="text-brand-600 underline dark:text-brand-100"
            href={`mailto:${supportEmail}?subject=Status%20updates`}
          >
            Subscribe to updates by email
          </a>{' '}
          · Need help?{' '}
          <Link to="/contact" className="text-brand-600 underline dark:text-brand-100">
            Contact support
          </Link>
        </p>
      </div>
      <SiteFooter />
    </>
  );
}
