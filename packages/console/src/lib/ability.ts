import { type AppAbility, defineAbilityFor } from '@wellrest/core';
import { useMemo } from 'react';
import { useCurrentUser } from '@/features/auth/useCurrentUser';

/**
 * What the signed-in user may do: core's ability, the same the server enforces. Screens decide
 * from it before asking the server, so a refused page says so at once and actions the role
 * cannot take are not offered.
 */
export function useAbility(): AppAbility {
  const { user } = useCurrentUser();
  return useMemo(() => defineAbilityFor(user), [user]);
}
