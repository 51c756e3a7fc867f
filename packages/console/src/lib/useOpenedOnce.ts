import { useState } from 'react';

/**
 * True from the first time `open` is true: a dialog whose code loads on demand mounts then and
 * stays mounted, so its closing animation and state survive later closes.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
