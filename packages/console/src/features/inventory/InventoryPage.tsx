import { defineAbilityFor, frontDeskMessages } from '@wellrest/core';
import { ChartColumn } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { ScanStation } from '@/features/scanning/ScanStation';
import { CleaningTab } from './CleaningTab';
import { KitsTab } from './KitsTab';
import { MaintenanceTab } from './MaintenanceTab';

const TABS = [
  { value: 'kits', label: 'Kits' },
  { value: 'checkout', label: 'Check out' },
  { value: 'checkin', label: 'Check in' },
  { value: 'cleaning', label: 'Cleaning' },
  { value: 'maintenance', label: 'Maintenance' },
] as const;
type Tab = (typeof TABS)[number]['value'];

const isTab = (value: string | null): value is Tab => TABS.some((tab) => tab.value === value);

/** Kits, the scanning desks and kit upkeep; the open tab lives in the URL (`?tab=`). */
export default function InventoryPage() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const requested = new URLSearchParams(search).get('tab');
  const tab: Tab = isTab(requested) ? requested : 'kits';
  const { user } = useCurrentUser();
  const canManage = useMemo(() => (user ? defineAbilityFor(user).can('create', 'Kit') : false), [user]);

  function select(next: string) {
    const params = new URLSearchParams(search);
    if (next === 'kits') params.delete('tab');
    else params.set('tab', next);
    navigate(params.size > 0 ? `${location}?${params}` : location, { replace: true });
  }

  return (
    <>
      <PageHeader
        title="Inventory"
        description="Kits, check-out and check-in scanning, cleaning and maintenance."
        actions={
          <Button variant="outline" size="sm" asChild>
            <Link href="/simple-kit-stats">
              <ChartColumn aria-hidden />
              {frontDeskMessages.kitStatsLink}
            </Link>
          </Button>
        }
      />
      {/* Arrow keys move between tabs without opening them, so a desk's scan field can take the focus. */}
      <Tabs value={tab} onValueChange={select} activationMode="manual">
        <div className="relative -mx-1 overflow-x-auto px-1 pb-1">
          <TabsList className="min-w-[34rem]" aria-label="Inventory sections">
            {TABS.map((t) => (
              <TabsTrigger key={t.value} value={t.value}>
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>
        </div>
        <TabsContent value="kits">
          <KitsTab canManage={canManage} />
        </TabsContent>
        <TabsContent value="checkout">
          <ScanStation mode="checkout" />
        </TabsContent>
        <TabsContent value="checkin">
          <ScanStation mode="checkin" />
        </TabsContent>
        <TabsContent value="cleaning">
          <CleaningTab />
        </TabsContent>
        <TabsContent value="maintenance">
          <MaintenanceTab canManage={canManage} />
        </TabsContent>
      </Tabs>
    </>
  );
}
