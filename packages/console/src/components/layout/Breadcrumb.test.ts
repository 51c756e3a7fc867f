import { describe, expect, it } from 'vitest';
import { breadcrumbFor } from './Breadcrumb';

describe('breadcrumb', () => {
  it('is the page alone on the dashboard', () => {
    expect(breadcrumbFor('/')).toEqual([{ label: 'Dashboard' }]);
  });

  it('links back to the dashboard and names the sidebar group', () => {
    expect(breadcrumbFor('/bookings')).toEqual([
      { label: 'Dashboard', href: '/' },
      { label: 'Operations' },
      { label: 'Bookings' },
    ]);
  });

  it("links a record's page to its list", () => {
    expect(breadcrumbFor('/physicians/12')).toEqual([
      { label: 'Dashboard', href: '/' },
      { label: 'Physician Portal' },
      { label: 'Physicians', href: '/physicians' },
      { label: 'Physician' },
    ]);
  });
});
