import { Brain, Crown, Puzzle, Globe, Search, Shield, Sparkles, Star, Tags, Zap } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { scrollToSection, SiteFooter } from '../../components/site-footer';
import { Button, buttonClass } from '../../components/ui/button';
import { formatPrice } from '../../lib/format';
import { useAppConfig, usePlans } from '../../lib/shared-queries';
import { LandingInstallButtons } from '../extension/install-buttons';

const STATS = [
  { value: '10K+', label: 'Links organised' },
  { value: '500+', label: 'Active users' },
  { value: '99.9%', label: 'Uptime' },
  { value: '4.8', label: 'Rating' },
];

const FEATURES = [
  {
    icon: Brain,
    title: 'AI Categorisation',
    text: 'Every link gets a title, description, category and tags proposed automatically.',
  },
  { icon: Search, title: 'Smart Search', text: 'Find links by meaning, not only by words. Type #tag to search a tag.' },
  {
    icon: Tags,
    title: 'Tags & Categories',
    text: 'Organise with your own categories and tags, filter and sort as you like.',
  },
  {
    icon: Shield,
    title: 'Encrypted Vault',
    text: 'Keep website credentials with your links, encrypted with your master password.',
  },
  { icon: Zap, title: 'Read Later', text: 'Mark links to read later and keep track of what you have already read.' },
  { icon: Globe, title: 'Browser Extensions', text: 'Save any page in one click or with Ctrl+Shift+H.' },
];

const TESTIMONIALS = [
  {
    name: 'Sarah K.',
    role: 'PhD researcher',
    text: 'I finally stopped losing papers in forty open tabs. The automatic tags are spot on.',
  },
  {
    name: 'Marcus L.',
    role: 'Frontend developer',
    text: 'Searching by meaning is the killer feature. I find the article I half remember in seconds.',
  },
  {
    name: 'Aino P.',
    role: 'Content creator',
    text: 'Read Later plus the extension shortcut changed how I collect ideas for my channel.',
  },
];

/** On load, a section hash in the address scrolls smoothly to its section after about 100 ms. */
function useHashScroll() {
  useEffect(() => {
    const id = window.location.hash.slice(1);
    if (!id) return;
    const timer = setTimeout(() => document.getElementById(id)?.scrollIntoView({ behavior: 'smooth' }), 100);
    return () => clearTimeout(timer);
  }, []);
}

function PlanCards() {
  const plans = usePlans();
  // The Pro action offers a trial only when one is configured (the FAQ says so too).
  const trialDays = useAppConfig().data?.trialDays ?? 0;
  const free = plans.data?.data.find((p) => p.id === 'free');
  const monthly = plans.data?.data.find((p) => p.id === 'monthly');
  const yearly = plans.data?.data.find((p) => p.id === 'yearly');
  return (
    <div className="mx-auto mt-10 grid max-w-4xl gap-6 md:grid-cols-2">
      <article
        aria-label="Free plan"
        className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <h3 className="text-xl font-semibold">Free</h3>
        <p className="mt-2 text-3xl font-bold">
          $0<span className="text-base font-normal text-slate-500 dark:text-slate-400"> forever</span>
        </p>
        <ul className="mt-4 flex-1 space-y-2 text-sm">
          {(free?.features ?? []).map((f) => (
            <li key={f}>✓ {f}</li>
          ))}
        </ul>
        <Link to="/register" className={buttonClass('secondary', 'md', 'mt-6 w-full')}>
          Get Started
        </Link>
      </article>
      <article
        aria-label="Pro plan"
        className="relative flex flex-col rounded-2xl border-2 border-brand-500 bg-white p-6 shadow-lg dark:bg-slate-900"
      >
        <h3 className="flex items-center gap-2 text-xl font-semibold">
          <Crown className="size-5 text-amber-500" aria-hidden /> Pro
        </h3>
        <p className="mt-2 text-3xl font-bold">
          {monthly ? formatPrice(monthly.price, monthly.currency) : '…'}
          <span className="text-base font-normal text-slate-500 dark:text-slate-400"> / month</span>
        </p>
        {yearly && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            or {formatPrice(yearly.price, yearly.currency)} / year
            {yearly.savingsPercent != null && ` (save ${yearly.savingsPercent}%)`}
          </p>
        )}
        <ul className="mt-4 flex-1 space-y-2 text-sm">
          {(monthly?.features ?? []).map((f) => (
            <li key={f}>✓ {f}</li>
          ))}
        </ul>
        <Link to="/register" className={buttonClass('primary', 'md', 'mt-6 w-full')}>
          {trialDays > 0 ? 'Start Free Trial' : 'Upgrade to Pro'}
        </Link>
      </article>
    </div>
  );
}

export default function LandingPage() {
  useHashScroll();
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-16 text-center sm:py-24 dark:from-slate-900 dark:to-slate-950">
        <p className="mx-auto inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-medium text-brand-700 shadow-sm dark:bg-slate-800 dark:text-brand-100">
          <Sparkles className="size-4" aria-hidden /> AI-powered bookmarks
        </p>
        <h1 className="mx-auto mt-6 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-6xl">
          Save links. <span className="text-brand-600">Find them again.</span>
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600 dark:text-slate-300">
          Linkwise analyses every link you save, proposes a title, description, category and tags, and lets you search
          by meaning.
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Link to="/register" className={buttonClass('primary', 'lg')}>
            Start Free Today
          </Link>
          <Button variant="secondary" size="lg" onClick={() => scrollToSection('features')}>
            Learn More
          </Button>
          <Button variant="ghost" size="lg">
            Watch Demo
          </Button>
        </div>
        <dl className="mx-auto mt-14 grid max-w-3xl grid-cols-2 gap-6 sm:grid-cols-4">
          {STATS.map((s) => (
            <div key={s.label}>
              <dt className="text-sm text-slate-600 dark:text-slate-400">{s.label}</dt>
              <dd className="order-first text-3xl font-bold text-brand-700 dark:text-brand-100">{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section id="features" className="px-4 py-16 sm:py-20">
        <div className="mx-auto max-w-7xl">
          <h2 className="text-center text-3xl font-bold">Everything you need to tame your links</h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-2xl border border-slate-200 p-6 dark:border-slate-800">
                <Icon className="size-8 text-brand-600" aria-hidden />
                <h3 className="mt-3 text-lg font-semibold">{title}</h3>
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="testimonials" className="bg-slate-50 px-4 py-16 sm:py-20 dark:bg-slate-900">
        <div className="mx-auto max-w-7xl">
          <h2 id="testimonials" className="text-center text-3xl font-bold">
            Loved by curious people
          </h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {TESTIMONIALS.map((t) => (
              <li key={t.name} className="rounded-2xl bg-white p-6 shadow-sm dark:bg-slate-950">
                <p className="flex gap-0.5 text-amber-500" role="img" aria-label="5 out of 5 stars">
                  {Array.from({ length: 5 }, (_, i) => (
                    <Star key={i} className="size-4 fill-current" aria-hidden />
                  ))}
                </p>
                <blockquote className="mt-3 text-slate-700 dark:text-slate-300">“{t.text}”</blockquote>
                <p className="mt-4 text-sm font-semibold">{t.name}</p>
                <p className="text-sm text-slate-600 dark:text-slate-400">{t.role}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="pricing" className="px-4 py-16 sm:py-20">
        <h2 className="text-center text-3xl font-bold">Simple pricing</h2>
        <p className="mt-2 text-center text-slate-600 dark:text-slate-400">Start free, upgrade when you need more.</p>
        <PlanCards />
      </section>

      <section id="extensions" className="bg-slate-50 px-4 py-16 sm:py-20 dark:bg-slate-900">
        <div className="mx-auto max-w-4xl text-center">
          <h2 className="text-3xl font-bold">Save from anywhere</h2>
          <p className="mt-2 text-slate-600 dark:text-slate-400">
            Our browser extensions connect to your account. Save the page you are on with Ctrl+Shift+H.
          </p>
          <div className="mt-8 grid gap-6 sm:grid-cols-2">
            <div className="rounded-2xl bg-white p-6 shadow-sm dark:bg-slate-950">
              <Puzzle className="mx-auto size-10 text-brand-600" aria-hidden />
              <h3 className="mt-3 font-semibold">Chrome &amp; Edge</h3>
              <LandingInstallButtons browser="chrome" />
            </div>
            <div className="rounded-2xl bg-white p-6 shadow-sm dark:bg-slate-950">
              <Globe className="mx-auto size-10 text-orange-500" aria-hidden />
              <h3 className="mt-3 font-semibold">Firefox</h3>
              <LandingInstallButtons browser="firefox" />
            </div>
          </div>
        </div>
      </section>

      <section className="px-4 py-16 text-center sm:py-20">
        <h2 className="text-3xl font-bold">Ready to organise your links?</h2>
        <Link to="/register" className={buttonClass('primary', 'lg', 'mt-6')}>
          Start Your Free Account
        </Link>
      </section>
      <SiteFooter />
    </>
  );
}
