import { shellMessages as m } from '@wellrest/core';
import { type ReactElement, useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from '@/components/ui/tooltip';

/** The console's keyboard shortcuts, as the sheet and tooltips show them. */
export const SHORTCUTS = {
  search: { keys: ['Ctrl', 'K'], alt: ['/'], label: m.shortcutSearch },
  newBooking: { keys: ['N'], label: m.shortcutNewBooking },
  help: { keys: ['?'], label: m.shortcutHelp },
  goDashboard: { keys: ['G', 'D'], label: m.shortcutGoDashboard },
  goBookings: { keys: ['G', 'B'], label: m.shortcutGoBookings },
  goPatients: { keys: ['G', 'P'], label: m.shortcutGoPatients },
  goCalendar: { keys: ['G', 'C'], label: m.shortcutGoCalendar },
  closeDialog: { keys: ['Esc'], label: m.shortcutCloseDialog },
} as const satisfies Record<string, { keys: readonly string[]; alt?: readonly string[]; label: string }>;

export type ShortcutName = keyof typeof SHORTCUTS;

/** "Ctrl+K" style text of a shortcut, for tooltips and aria-keyshortcuts. */
export function shortcutText(name: ShortcutName): string {
  const keys: readonly string[] = SHORTCUTS[name].keys;
  return keys.length === 2 && keys[0] === 'G' ? `G then ${keys[1]}` : keys.join('+');
}

function typingInField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/**
 * The single-key shortcuts: `?` help, `/` search, `N` new booking, `G` then a letter to go to a page.
 * Ignored while typing in a field, while a dialog is open, and with Ctrl/Alt/Meta held (Ctrl+K is
 * handled by the layout).
 */
export function useShortcuts({
  onSearch,
  onHelp,
  canBook,
}: {
  onSearch: () => void;
  onHelp: () => void;
  canBook: boolean;
}) {
  const [, navigate] = useLocation();
  const pendingGo = useRef(0);
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (typingInField(event.target)) return;
      if (
        document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]')
      )
        return;
      const key = event.key;
      if (pendingGo.current > Date.now()) {
        pendingGo.current = 0;
        const target = { d: '/', b: '/bookings', p: '/patients', c: '/calendar' }[key.toLowerCase()];
        if (target) {
          event.preventDefault();
          navigate(target);
        }
        return;
      }
      if (key === '?') {
        event.preventDefault();
        onHelp();
      } else if (key === '/') {
        event.preventDefault();
        onSearch();
      } else if ((key === 'n' || key === 'N') && canBook) {
        event.preventDefault();
        navigate('/booking');
      } else if (key === 'g' || key === 'G') {
        pendingGo.current = Date.now() + 1500;
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [navigate, onHelp, onSearch, canBook]);
}

function Keys({ keys }: { keys: readonly string[] }) {
  return (
    <span className="flex items-center gap-1">
      {keys.map((key) => (
        <kbd
          key={key}
          className="min-w-7 rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 text-center font-mono text-xs text-slate-800"
        >
          {key}
        </kbd>
      ))}
    </span>
  );
}

/** The sheet `?` opens: every shortcut and its keys. */
export function ShortcutsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{m.shortcutsTitle}</DialogTitle>
          <DialogDescription>{m.shortcutsDescription}</DialogDescription>
        </DialogHeader>
        <dl className="divide-y divide-slate-100 text-sm">
          {Object.entries(SHORTCUTS).map(([name, shortcut]) => (
            <div key={name} className="flex items-center justify-between gap-4 py-2">
              <dt className="text-slate-800">{shortcut.label}</dt>
              <dd className="flex items-center gap-2 text-slate-600">
                <Keys keys={shortcut.keys} />
                {'alt' in shortcut && (
                  <>
                    <span>or</span>
                    <Keys keys={shortcut.alt} />
                  </>
                )}
              </dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}

/** Wraps a control in a tooltip naming it and its shortcut ("New booking (N)"). */
export function ShortcutHint({ name, children }: { name: ShortcutName; children: ReactElement }) {
  // Its own provider: pages render it in tests and stories outside the console's layout too.
  return (
    <TooltipProvider>
      <Tooltip>
        <TooltipTrigger asChild aria-keyshortcuts={SHORTCUTS[name].keys.join('+').replace('Ctrl', 'Control')}>
          {children}
        </TooltipTrigger>
        <TooltipContent>
          {SHORTCUTS[name].label} ({shortcutText(name)})
        </TooltipContent>
      </Tooltip>
    </TooltipProvider>
  );
}
