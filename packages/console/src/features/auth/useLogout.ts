import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, LOGIN_ROUTE } from '@wellrest/core';
import { useLocation } from 'wouter';
import { apiRequest } from '@/lib/api';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { forgetThemeUser } from '@/lib/theme';

/**
 * Signs out (spec §4). Whether the server call succeeds or not, every cached query and all of
 * local storage (privacy flag and device id included) are cleared and the user lands on /login.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: () => apiRequest('POST', API_PATHS.authLogout),
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(CURRENT_USER_KEY, null);
      localStorage.clear();
      forgetThemeUser();
      navigate(LOGIN_ROUTE);
    },
  });
}
