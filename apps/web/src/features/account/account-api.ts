import { ApiError } from '@linkwise/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../lib/toast';
import { api, errorMessage } from '../../lib/api';

export const securityKey = ['account', 'security'] as const;
export const sessionsKey = ['account', 'sessions'] as const;
export const tokensKey = ['account', 'tokens'] as const;

export const useSecurityOverview = () => useQuery({ queryKey: securityKey, queryFn: () => api.securityOverview() });
export const useSessions = () =>
  useQuery({ queryKey: sessionsKey, queryFn: async () => (await api.listSessions()).data });
export const useApiTokens = () =>
  useQuery({ queryKey: tokensKey, queryFn: async () => (await api.listApiTokens()).data });

/** A field's message from the server's `details.fields`, or undefined. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const fields = (error.details?.fields ?? {}) as Record<string, string>;
  return fields[field];
}

/** Revoking refreshes both lists: API tokens appear among the sessions too. */
export function useRevoke() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: sessionsKey }),
      client.invalidateQueries({ queryKey: tokensKey }),
    ]);
  const session = useMutation({
    mutationFn: (id: string) => api.revokeSession({ params: { id } }),
    onSuccess: async () => {
      toast.success('Signed out of that device');
      await refresh();
    },
    onError: (error) => toast.error(errorMessage(error, 'Could not sign that device out. Please try again.')),
  });
  const others = useMutation({
    mutationFn: () => api.revokeOtherSessions(),
    onSuccess: async () => {
      toast.success('Signed out of every other device');
      await refresh();
    },
    onError: (error) => toast.error(errorMessage(error, 'Could not sign the other devices out. Please try again.')),
  });
  const token = useMutation({
    mutationFn: (id: string) => api.revokeApiToken({ params: { id } }),
    onSuccess: async () => {
      toast.success('Token revoked');
      await refresh();
    },
    onError: (error) => toast.error(errorMessage(error, 'Could not revoke the token. Please try again.')),
  });
  return { session, others, token, refresh };
}
