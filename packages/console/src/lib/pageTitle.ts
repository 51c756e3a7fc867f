import { findRoute, messages, PRIVACY_POLICY_URL, SET_PASSWORD_PATH, shellMessages } from '@wellrest/core';
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { routeTitle } from '@/routes/titles';

/*
 * document.title follows the route table: every route, including routes added later, is titled
 * "<route title> · Wellrest" as soon as it is entered. A record's page (a route with an :id) may
 * add the name its heading shows ("Dr. Ada Moss · Physician · Wellrest"); nothing that the screen
 * does not show goes into the title.
 */

let record: { path: string; title: string } | null = null;

function baseTitle(path: string): string {
  if (path === PRIVACY_POLICY_URL) return messages.privacy.title;
  if (path === SET_PASSWORD_PATH) return 'Set your password';
  const pattern = findRoute(path);
  return pattern ? routeTitle(pattern) : messages.common.pageNotFound;
}

function refresh(): void {
  const path = window.location.pathname;
  const base = baseTitle(path);
  const name = record?.path === path && record.title !== base ? record.title : null;
  document.title = shellMessages.documentTitle(name ? `${name} \u00b7 ${base}` : base);
}

/** Titles the document after the current route. */
export function useRouteDocumentTitle(): void {
  const [path] = useLocation();
  useEffect(() => {
    void path;
    refresh();
  }, [path]);
}

/** On a record's page, names the record in the document title (its heading text, nothing more). */
export function useRecordTitle(title: string | undefined): void {
  const [path] = useLocation();
  useEffect(() => {
    const pattern = findRoute(path);
    if (!title || !pattern?.includes(':')) return;
    const entry = { path, title };
    record = entry;
    refresh();
    return () => {
      if (record === entry) record = null;
      refresh();
    };
  }, [path, title]);
}

/**
 * After a navigation (not the first page load), moves focus to the new page's heading so a screen
 * reader announces where the user is. The heading may arrive later (lazy pages, loading states):
 * it is waited for, up to a few seconds, and never taken from a control the user has since focused.
 */
export function useFocusHeadingOnNavigate(container: () => HTMLElement | null): void {
  const [path] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    void path;
    if (first.current) {
      first.current = false;
      return;
    }
    const root = container();
    if (!root) return;
    // The heading of the page being left may still be on screen for a moment: wait for a new one.
    const previous = root.querySelector('h1');
    const startedOn = document.activeElement;
    const focusHeading = (): boolean => {
      const heading = root.querySelector<HTMLElement>('h1');
      if (!heading || heading === previous) return false;
      const active = document.activeElement;
      // The user has moved on (typed in a field, opened a dialog): leave their focus alone.
      if (active && active !== startedOn && active !== document.body && root.contains(active)) return true;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      return true;
    };
    const observer = new MutationObserver(() => {
      if (focusHeading()) stop();
    });
    // A page reached again (same component, same heading element) keeps its heading: take it after a tick.
    const fallback = window.setTimeout(() => {
      const heading = root.querySelector<HTMLElement>('h1');
      if (heading === previous && heading && document.activeElement === startedOn) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
      }
    }, 300);
    const timer = window.setTimeout(() => stop(), 5000);
    function stop() {
      observer.disconnect();
      window.clearTimeout(timer);
      window.clearTimeout(fallback);
    }
    observer.observe(root, { childList: true, subtree: true });
    if (focusHeading()) stop();
    return stop;
  }, [path, container]);
}
