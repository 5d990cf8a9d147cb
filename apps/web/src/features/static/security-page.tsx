import { KeyRound, RefreshCw, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { FALLBACK_CONFIG, useAppConfig } from '../../lib/shared-queries';
import { InfoPage, infoCard } from './info-layout';

const PRACTICES = [
  {
    icon: KeyRound,
    title: 'Use a strong, unique master password',
    text: 'A passphrase of several random words is easier to remember and harder to guess.',
  },
  {
    icon: ShieldCheck,
    title: 'Enable two-factor authentication',
    text: 'A second factor keeps your account safe even if your password leaks.',
  },
  {
    icon: RefreshCw,
    title: 'Keep extensions and the web app updated',
    text: 'Updates carry security fixes; install them when they arrive.',
  },
];

export default function SecurityPage() {
  const { supportEmail } = useAppConfig().data ?? FALLBACK_CONFIG;
  return (
    <InfoPage title="Security & Privacy" intro="How Linkwise protects your links and credentials.">
      <section className={infoCard}>
        <h2 className="text-xl font-semibold">Encryption</h2>
        <p className="mt-2">
          Stored website credentials are encrypted in your browser with a key derived from your master password (100,000
          iterations) before they reach our servers. We cannot read them.
        </p>
      </section>
      <section className={infoCard}>
        <h2 className="text-xl font-semibold">Account protection</h2>
        <p className="mt-2">
          Passwords are stored as salted hashes, sessions can be revoked, and sign-in is rate limited.
        </p>
      </section>
      <section aria-labelledby="practices">
        <h2 id="practices" className="text-xl font-semibold">
          Best practices
        </h2>
        <ul className="mt-4 grid gap-4 md:grid-cols-3">
          {PRACTICES.map(({ icon: Icon, title, text }) => (
            <li key={title} className={infoCard}>
              <Icon className="size-6 text-brand-600" aria-hidden />
              <h3 className="mt-2 font-semibold">{title}</h3>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="concerns" className={infoCard}>
        <h2 id="concerns" className="text-xl font-semibold">
          Security Concerns
        </h2>
        <p className="mt-2">
          Found a vulnerability? Write to{' '}
          <a className="text-brand-600 underline" href={`mailto:${supportEmail}?subject=Security%20report`}>
            {supportEmail}
          </a>
          . We respond to security reports within 24 hours. For anything else, visit the{' '}
          <Link to="/contact" className="text-brand-600 underline">
            Help Center
          </Link>
          .
        </p>
      </section>
      <section className={`${infoCard} text-center`}>
        <h2 className="text-xl font-semibold">Ready to save links safely?</h2>
        <div className="mt-4 flex flex-col justify-center gap-2 sm:flex-row">
          <Link to="/register" className={buttonClass('primary')}>
            Create Free Account
          </Link>
          <Link to="/privacy" className={buttonClass('secondary')}>
            Read the Privacy Policy
          </Link>
        </div>
      </section>
    </InfoPage>
  );
}
