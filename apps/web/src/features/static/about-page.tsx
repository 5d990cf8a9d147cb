import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { FALLBACK_CONFIG, useAppConfig } from '../../lib/shared-queries';
import { InfoPage, infoCard } from './info-layout';

export default function AboutPage() {
  const { operatorName } = useAppConfig().data ?? FALLBACK_CONFIG;
  return (
    <InfoPage
      title="About Linkwise"
      intro="A link manager for researchers, students, professionals and content creators."
    >
      <section className={infoCard}>
        <h2 className="text-xl font-semibold">Why we built it</h2>
        <p className="mt-2">
          Bookmarks pile up and are never found again. Linkwise analyses every link you save, proposes a title,
          description, category and tags, and lets you search by meaning instead of by exact words.
        </p>
      </section>
      <section className={infoCard}>
        <h2 className="text-xl font-semibold">Who we are</h2>
        <p className="mt-2">Linkwise is built and operated by {operatorName}, based in Estonia.</p>
      </section>
      <Link to="/register" className={buttonClass('primary', 'lg')}>
        Start Free Today
      </Link>
    </InfoPage>
  );
}
