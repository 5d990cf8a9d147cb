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
    text: 'Turn it on in your Profile: a code from your phone keeps your account safe even if your password leaks.',
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
      <section aria-labelledby="vault" className={infoCard}>
        <h2 id="vault" className="text-xl font-semibold">
          The credential vault: what is encrypted, where, and how
        </h2>
        <p className="mt-2">
          The usernames, passwords and notes of the website credentials you store with your links are encrypted in your
          browser before they are sent to our servers. We store only the encrypted data, so we cannot read them, and
          neither can anyone who obtains our database.
        </p>
        <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm">
          <li>
            <strong>Master password.</strong> It never leaves your browser. PBKDF2 with HMAC-SHA-256, 600,000 iterations
            (well over the 100,000 minimum we promise) and a random 16-byte salt turns it into a key-encryption key.
          </li>
          <li>
            <strong>Vault key.</strong> A random 256-bit key, generated in your browser, encrypts your credentials. The
            key-encryption key wraps it with AES-256-GCM. Our servers keep the wrapped key, the salt and the iteration
            count; without your master password they are useless.
          </li>
          <li>
            <strong>Each credential.</strong> Username, password and note are encrypted together with AES-256-GCM under
            the vault key, with a fresh random 12-byte IV every time. The encryption is bound to your account, the link
            and the credential, so a stored credential that is altered or moved to another link fails to open.
          </li>
          <li>
            <strong>In memory only.</strong> The unlocked vault key stays in the open tab&apos;s memory, never in
            browser storage. The vault locks when you press Lock vault, sign out, reload or close the tab, and after 15
            minutes without activity (you can change this in Vault Settings). Copied usernames and passwords are cleared
            from the clipboard after 30 seconds where the browser allows it.
          </li>
          <li>
            <strong>Changing the master password</strong> re-wraps the vault key; your credentials are not re-encrypted.
            Your browser refuses vault data with fewer than 600,000 iterations.
          </li>
          <li>
            <strong>No recovery.</strong> We cannot reset a forgotten master password. Resetting the vault deletes every
            stored credential; your links stay.
          </li>
        </ul>
        <p className="mt-3 text-sm">
          <strong>Not in the vault:</strong> link addresses, titles, descriptions, categories, tags and link notes are
          stored unencrypted on our servers (protected by your account), because they power search and analysis. Keep
          secrets in credentials, not in link notes.
        </p>
      </section>
      <section aria-labelledby="account-protection" className={infoCard}>
        <h2 id="account-protection" className="text-xl font-semibold">
          Account protection
        </h2>
        <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm">
          <li>
            <strong>Passwords</strong> are stored only as Argon2id hashes. The most common passwords are refused.
            Changing your password signs out your other devices (API tokens keep working until you revoke them).
          </li>
          <li>
            <strong>Two-factor authentication.</strong> Turn it on in your Profile: after your password, sign-in asks
            for a 6-digit code from an authenticator app. A code works only once. Ten recovery codes, shown once, let
            you in if you lose your phone. The secret behind your codes is stored encrypted.
          </li>
          <li>
            <strong>Your devices.</strong> Your Profile lists every browser, extension and API token signed in to your
            account, with when each was last used. Sign out any of them, or all the others at once. A device unused for
            90 days is signed out by itself.
          </li>
          <li>
            <strong>Sign-in limits.</strong> Repeated failed sign-ins are slowed down per address and paused per
            account, so passwords cannot be guessed at speed. Sign-in and registration can also ask for a bot check.
          </li>
          <li>
            <strong>Forgotten password.</strong> Where email is set up, a reset link works once and for 30 minutes, and
            using it signs out every device.
          </li>
          <li>
            <strong>API tokens</strong> for your scripts can be read-only and can expire. No token can change your
            account.
          </li>
          <li>
            <strong>Deleting your account</strong> from your Profile removes it with all your links, credentials, tokens
            and subscription at once.
          </li>
        </ul>
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
          <a
            className="text-brand-600 underline dark:text-brand-100"
            href={`mailto:${supportEmail}?subject=Security%20report`}
          >
            {supportEmail}
          </a>
          . We respond to security reports within 24 hours. For anything else, visit the{' '}
          <Link to="/contact" className="text-brand-600 underline dark:text-brand-100">
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
