import { messages, shellMessages } from '@wellrest/core';
import { Clock, Keyboard, Menu, Search } from 'lucide-react';
import { Brand } from '@/components/brand/Brand';
import { Button } from '@/components/ui/button';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { NotificationBell } from '@/features/notifications/NotificationBell';
import { practiceTimeZone, practiceZoneAbbreviation } from '@/lib/datetime';
import { Breadcrumb } from './Breadcrumb';
import { ShortcutHint } from './shortcuts';
import { ThemeMenu } from './ThemeMenu';

/**
 * The practice's zone, always in view (the header from md up, the page's footer below): times and
 * "today" across the console are in it.
 */
export function PracticeZone({
  className = 'hidden md:flex',
  unknown = false,
}: {
  className?: string;
  /** No session has named the zone yet (a pre-rendered page): the line's place is kept, empty. */
  unknown?: boolean;
}) {
  if (unknown) {
    return (
      <p className={`invisible items-center text-xs ${className}`} aria-hidden>
        <Clock className="size-3.5" aria-hidden />
      </p>
    );
  }
  const zone = practiceTimeZone();
  return (
    <p className={`items-center gap-1.5 whitespace-nowrap text-xs text-slate-600 ${className}`}>
      <Clock className="size-3.5" aria-hidden />
      {shellMessages.practiceZone(`${zone.replace(/_/g, ' ')} (${practiceZoneAbbreviation()})`)}
    </p>
  );
}

export function Header({
  onOpenMenu,
  onSearch,
  onShortcuts,
  zoneUnknown = false,
}: {
  onOpenMenu: () => void;
  onSearch: () => void;
  onShortcuts?: () => void;
  /** See {@link PracticeZone}'s `unknown`. */
  zoneUnknown?: boolean;
}) {
  const { user } = useCurrentUser();
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur supports-[backdrop-filter]:bg-white/80 sm:px-6 lg:px-8 print:hidden">
      <Button
        variant="ghost"
        size="icon"
        className="-ml-2 lg:hidden"
        onClick={onOpenMenu}
        aria-label={messages.navigation.openMenu}
      >
        <Menu className="size-5" aria-hidden />
      </Button>
      <div className="lg:hidden">
        <Brand />
      </div>
      <Breadcrumb className="hidden min-w-0 lg:block" />
      <div className="ml-auto flex items-center gap-1">
        <PracticeZone unknown={zoneUnknown} />
        <ShortcutHint name="search">
          <Button
            variant="ghost"
            size="icon"
            className="lg:hidden"
            onClick={onSearch}
            aria-label={messages.navigation.search}
            aria-haspopup="dialog"
          >
            <Search className="size-5" aria-hidden />
          </Button>
        </ShortcutHint>
        {onShortcuts && (
          <ShortcutHint name="help">
            <Button
              variant="ghost"
              size="icon"
              className="hidden sm:inline-flex"
              onClick={onShortcuts}
              aria-label={shellMessages.shortcutsButton}
              aria-haspopup="dialog"
            >
              <Keyboard className="size-5" aria-hidden />
            </Button>
          </ShortcutHint>
        )}
        {user && <ThemeMenu userId={user.id} />}
        <NotificationBell />
      </div>
    </header>
  );
}
