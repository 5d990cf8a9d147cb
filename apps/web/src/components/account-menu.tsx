import * as Menu from '@radix-ui/react-dropdown-menu';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowDownUp, ChevronDown, Crown, LogOut, Settings, Sparkles, User as UserIcon } from 'lucide-react';
import { useLocation, useNavigate } from 'react-router';
import { api } from '../lib/api';
import { isPro, useAuth } from '../lib/auth-store';

const item =
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800';

/** The profile dropdown: closes on an outside click or a choice (Radix). */
export default function AccountMenu() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  if (!user) return null;
  const pro = isPro(user);

  const signOut = async () => {
    // Revoke the token on the server first (leaving the page would abort the request); the local
    // session ends whatever it answers.
    await api.logout().catch(() => undefined);
    logout();
    queryClient.clear();
    // A full load of / (not a client-side navigation): the protected page being left would
    // otherwise race it with its own redirect to /login, and no in-memory state survives.
    window.location.assign('/');
  };

  return (
    <Menu.Root modal={false}>
      <Menu.Trigger
        className={`flex shrink-0 items-center gap-1.5 rounded-lg px-2 py-2 text-sm font-medium sm:gap-2 sm:px-3 ${location.pathname === '/profile' ? 'bg-brand-50 text-brand-700 dark:bg-brand-600/20 dark:text-brand-100' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'}`}
      >
        <UserIcon className="size-4" aria-hidden />
        <span className="hidden max-w-40 truncate sm:inline">{user.username}</span>
        <span className="sm:hidden">Profile</span>
        {pro && (
          <span className="inline-flex items-center gap-0.5 rounded-full bg-amber-100 px-1.5 py-0.5 text-xs font-semibold sm:gap-1 sm:px-2 text-amber-800 dark:bg-amber-500/20 dark:text-amber-200">
            <Crown className="size-3" aria-hidden />
            Pro
          </span>
        )}
        <span className="sr-only">account menu</span>
        <ChevronDown className="hidden size-4 sm:block" aria-hidden />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-52 rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <Menu.Item className={item} onSelect={() => void navigate('/profile')}>
            <Settings className="size-4" aria-hidden /> Profile Settings
          </Menu.Item>
          <Menu.Item className={item} onSelect={() => void navigate('/import')}>
            <ArrowDownUp className="size-4" aria-hidden /> Import / Export
          </Menu.Item>
          <Menu.Item className={item} onSelect={() => void navigate('/pricing')}>
            <Sparkles className="size-4" aria-hidden /> {pro ? 'Manage Subscription' : 'Upgrade to Pro'}
          </Menu.Item>
          <Menu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
          <Menu.Item className={`${item} text-red-600 dark:text-red-400`} onSelect={() => void signOut()}>
            <LogOut className="size-4" aria-hidden /> Sign Out
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
