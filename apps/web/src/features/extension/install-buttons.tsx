import { Globe, Puzzle } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { installHref, useExtensionInfo, type InstallTarget } from './extension-info';

/** A store page opens in a new tab; the install page is part of the app. */
function InstallLink({
  target,
  className,
  children,
}: {
  target: InstallTarget;
  className: string;
  children: React.ReactNode;
}) {
  const { data } = useExtensionInfo();
  const href = installHref(data, target);
  return href.startsWith('/') ? (
    <Link to={href} className={className}>
      {children}
    </Link>
  ) : (
    <a href={href} target="_blank" rel="noreferrer" className={className}>
      {children}
    </a>
  );
}

/** The landing page's two install buttons (spec: Install Chrome Extension, Install Firefox Extension). */
export function LandingInstallButtons({ browser }: { browser: 'chrome' | 'firefox' }) {
  return browser === 'chrome' ? (
    <InstallLink target="chrome" className={buttonClass('primary', 'md', 'mt-4')}>
      Install Chrome Extension
    </InstallLink>
  ) : (
    <InstallLink target="firefox" className={buttonClass('secondary', 'md', 'mt-4')}>
      Install Firefox Extension
    </InstallLink>
  );
}

/** Profile's Browser Extensions section: one button per store. */
export function ProfileInstallButtons() {
  const button = buttonClass('secondary', 'md');
  return (
    <div className="mt-4 flex flex-wrap gap-2">
      <InstallLink target="chrome" className={button}>
        <Puzzle className="size-4" aria-hidden /> Chrome
      </InstallLink>
      <InstallLink target="edge" className={button}>
        <Puzzle className="size-4" aria-hidden /> Edge
      </InstallLink>
      <InstallLink target="firefox" className={button}>
        <Globe className="size-4" aria-hidden /> Firefox
      </InstallLink>
    </div>
  );
}
