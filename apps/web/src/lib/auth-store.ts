import type { PaidPlanId, SubscriptionStatus, User } from '@linkwise/contract';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export interface AuthState {
  user: User | null;
  token: string | null;
  isAuthenticated: boolean;
  login: (user: User, token: string) => void;
  logout: () => void;
  /** Merge a partial user (for example after a profile refresh). */
  updateUser: (patch: Partial<User>) => void;
  updateSubscription: (status: SubscriptionStatus, plan: PaidPlanId | null, endDate: string | null) => void;
}

/** The session, persisted in localStorage under 'auth-storage' as the spec fixes. */
export const useAuth = create<AuthState>()(
  persist(
    (set) => ({
      user: null,
      token: null,
      isAuthenticated: false,
      login: (user, token) => set({ user, token, isAuthenticated: true }),
      logout: () => set({ user: null, token: null, isAuthenticated: false }),
      updateUser: (patch) => set((s) => (s.user ? { user: { ...s.user, ...patch } } : s)),
      updateSubscription: (status, plan, endDate) =>
        set((s) =>
          s.user
            ? {
                user: {
                  ...s.user,
                  subscriptionStatus: status,
                  subscriptionPlan: plan,
                  subscriptionEndDate: endDate,
                  linkLimit: status === 'active' ? null : s.user.linkLimit,
                },
              }
            : s,
        ),
    }),
    {
      name: 'auth-storage',
      partialize: (s) => ({ user: s.user, token: s.token, isAuthenticated: s.isAuthenticated }),
    },
  ),
);

export const isPro = (user: User | null | undefined): boolean => user?.subscriptionStatus === 'active';
