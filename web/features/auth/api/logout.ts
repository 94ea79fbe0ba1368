import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import type { okResponse } from '#contract/responses';
import { api } from '#web/lib/api';
import { paths } from '#web/lib/paths';
import { meQueryKey } from '#web/lib/query-keys';
import { setSessionEndReason } from '../session-end';

export function logout(): Promise<z.infer<typeof okResponse>> {
  return api.post('/api/auth/logout');
}

/** Ends the session; whatever the server says, the local cache is cleared and the user goes to /login. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      setSessionEndReason(null);
      queryClient.clear();
      queryClient.setQueryData(meQueryKey, null);
      navigate(paths.login, { replace: true });
    },
  });
}
