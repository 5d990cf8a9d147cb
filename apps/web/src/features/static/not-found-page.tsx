import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';

export default function NotFoundPage() {
  return (
    <div className="mx-auto max-w-lg px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">Page not found</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">The page you are looking for does not exist.</p>
      <Link to="/" className={buttonClass('primary', 'md', 'mt-6')}>
        Back to Home
      </Link>
    </div>
  );
}
