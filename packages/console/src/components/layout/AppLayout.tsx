import { SIDEBAR_WIDTH, SIDEBAR_WIDTH_MOBILE } from '@wellrest/core';
import { type CSSProperties, lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { PageSpinner } from '@/components/ui/spinner';
import { TooltipProvider } from '@/components/ui/tooltip';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { useLogout } from '@/features/auth/useLogout';
import { useAbility } from '@/lib/ability';
import { setPracticeTimeZone } from '@/lib/datetime';
import { useFocusHeadingOnNavigate } from '@/lib/pageTitle';
import { useMediaQuery } from '@/lib/useMediaQuery';
import { useOpenedOnce } from '@/lib/useOpenedOnce';
import { Header, PracticeZone } from './Header';
import { PrivacyDialog } from './PrivacyDialog';
import { Sidebar } from './Sidebar';
import { ShortcutsDialog, useShortcuts } from './shortcuts';

// The search dialog (cmdk) loads when first opened, keeping it out of the first paint.
const SearchDialog = lazy(() => import('./SearchDialog').then((m) => ({ default: m.SearchDialog })));

/** Tailwind's lg breakpoint (64rem), from which the sidebar is a fixed column. */
const WIDE_SCREEN = '(min-width: 64rem)';

const mainElement = () => document.getElementById('main');

/** The signed-in console: sidebar (a fixed column on large screens, a sheet on small ones), header, page. */
export default function AppLayout({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  const logout = useLogout();
  const [menuOpen, setMenuOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  // Times and "today" everywhere are the practice's: set before any page renders.
  setPracticeTimeZone(user?.practiceTimeZone);
  useFocusHeadingOnNavigate(mainElement);
  const searchMounted = useOpenedOnce(searchOpen);
  // The fixed column shows from Tailwind's lg breakpoint; below it the sidebar lives in the sheet
  // only, so a phone does not build (and lay out) a navigation it never shows.
  const wide = useMediaQuery(WIDE_SCREEN);

  const openSearch = useCallback(() => {
    setMenuOpen(false);
    setSearchOpen(true);
  }, []);

  const ability = useAbility();
  const openShortcuts = useCallback(() => setShortcutsOpen(true), []);
  useShortcuts({ onSearch: openSearch, onHelp: openShortcuts, canBook: ability.can('create', 'Booking') });

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key.toLowerCase() === 'k' && (event.metaKey || event.ctrlKey)) {
        event.preventDefault();
        setSearchOpen((open) => !open);
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  if (!user) return null;

  const sidebar = (onNavigate?: () => void) => (
    <Sidebar
      user={user}
      onSearch={openSearch}
      onLogout={() => logout.mutate()}
      loggingOut={logout.isPending}
      onNavigate={onNavigate}
    />
  );

  return (
    <TooltipProvider>
      <LayoutFrame
        aside={wide && sidebar()}
        header={
          <Header onOpenMenu={() => setMenuOpen(true)} onSearch={openSearch} onShortcuts={openShortcuts} />
        }
        after={
          <>
            <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
              <SheetContent className="lg:hidden" style={{ width: SIDEBAR_WIDTH_MOBILE }}>
                <SheetTitle className="sr-only">Navigation</SheetTitle>
                <SheetDescription className="sr-only">Console sections and your account</SheetDescription>
                {sidebar(() => setMenuOpen(false))}
              </SheetContent>
            </Sheet>
            {searchMounted && (
              <Suspense fallback={null}>
                <SearchDialog open={searchOpen} onOpenChange={setSearchOpen} />
              </Suspense>
            )}
            <ShortcutsDialog open={shortcutsOpen} onOpenChange={setShortcutsOpen} />
            <PrivacyDialog />
          </>
        }
      >
        <Suspense fallback={<PageSpinner />}>{children}</Suspense>
      </LayoutFrame>
    </TooltipProvider>
  );
}

/**
 * The console's frame: the sidebar column (from the lg breakpoint), the header, the page and the
 * practice zone's footer on small screens. The signed-in layout fills it; the pre-rendered first
 * screens (src/prerender.tsx) draw the same frame, so the live page lands on it without a shift.
 */
export function LayoutFrame({
  aside,
  header,
  children,
  after,
  zoneUnknown = false,
}: {
  /** The sidebar; the column is there (empty) without it. */
  aside?: ReactNode;
  header: ReactNode;
  children: ReactNode;
  /** Layered parts outside the flow (menus, dialogs). */
  after?: ReactNode;
  /** No session has named the practice's zone yet (see PracticeZone). */
  zoneUnknown?: boolean;
}) {
  return (
    <div className="min-h-dvh bg-slate-50" style={{ '--sidebar-width': SIDEBAR_WIDTH } as CSSProperties}>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 text-sm font-medium text-accent-800 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>

      <aside className="fixed inset-y-0 left-0 z-40 hidden w-(--sidebar-width) border-r border-slate-200 lg:block print:hidden">
        {aside}
      </aside>

      <div className="flex min-h-dvh flex-col lg:pl-(--sidebar-width) print:pl-0">
        {header}
        <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8 lg:py-8">
          <div className="mx-auto w-full max-w-7xl">{children}</div>
        </main>
        <footer className="flex justify-center border-t border-slate-200 px-4 py-3 md:hidden print:hidden">
          <PracticeZone className="flex" unknown={zoneUnknown} />
        </footer>
      </div>

      {after}
    </div>
  );
}
