import { FALLBACK_CONFIG, useAppConfig } from '../../lib/shared-queries';
import { InfoPage, infoCard } from './info-layout';

/** The answers; the Free limit is the server's (`FREE_LINK_LIMIT`), as on the pricing page. */
const questions = (freeLimit: number) => [
  [
    'How do I save a link?',
    'Press Add Link on the dashboard, paste the address and press Analyze to fill in the details.',
  ],
  ['How do I search by tag?', 'Type a hash sign followed by the tag, for example #recipes, into the search box.'],
  [
    `What happens when I reach ${freeLimit} links?`,
    `The Free plan holds up to ${freeLimit} links. Upgrade to Pro for unlimited links.`,
  ],
  ['How do I cancel Pro?', 'Open Profile, press Manage, and cancel. You keep Pro until the end of the period.'],
];

export default function ContactPage() {
  const { supportEmail, operatorName, freeLinkLimit } = useAppConfig().data ?? FALLBACK_CONFIG;
  return (
    <InfoPage title="Help Center" intro="Answers to common questions, and how to reach us.">
      <section aria-labelledby="contact" className={infoCard}>
        <h2 id="contact" className="text-xl font-semibold">
          Contact us
        </h2>
        <p className="mt-2">
          Email{' '}
          <a className="text-brand-600 underline dark:text-brand-100" href={`mailto:${supportEmail}`}>
            {supportEmail}
          </a>
          . We typically respond within 24 hours. Pro subscribers get priority support.
        </p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Linkwise is operated by {operatorName}, Estonia.
        </p>
      </section>
      <section aria-labelledby="faq" className={infoCard}>
        <h2 id="faq" className="text-xl font-semibold">
          Frequently asked questions
        </h2>
        {questions(freeLinkLimit).map(([q, a]) => (
          <details key={q} className="mt-3">
            <summary className="cursor-pointer font-medium">{q}</summary>
            <p className="mt-1 text-slate-600 dark:text-slate-400">{a}</p>
          </details>
        ))}
      </section>
    </InfoPage>
  );
}
