import { useEffect } from 'react';

/*
 * Refetching on focus, mount or reconnect would replace data under a user who is filling in a
 * form (and can reset controlled inputs). Dialogs holding a form register here while open; the
 * query defaults ask `hasOpenForm()` before refetching.
 */
let openForms = 0;

export function hasOpenForm(): boolean {
  return openForms > 0;
}

/** Marks a form as open for as long as `open` is true and the calling component is mounted. */
export function useRegisterOpenForm(open: boolean): void {
  useEffect(() => {
    if (!open) return undefined;
    openForms += 1;
    return () => {
      openForms -= 1;
    };
  }, [open]);
}
