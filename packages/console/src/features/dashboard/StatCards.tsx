import { type DashboardStatsResponse, frontDeskMessages, type StatCardColor } from '@wellrest/core';
import { CalendarCheck, type LucideIcon, Package, Truck, Users } from 'lucide-react';
import { StatCard } from './StatCard';

type Stats = Partial<DashboardStatsResponse>;

interface StatDefinition {
  key: keyof DashboardStatsResponse;
  title: string;
  icon: LucideIcon;
  color: StatCardColor;
  subtitle: (stats: Stats) => string | undefined;
}

const count = (value: number | undefined, one: string, many: string) =>
  value === undefined ? undefined : `${value} ${value === 1 ? one : many}`;

/** The stat cards, in order; a card whose number the server did not send is left out. */
export const STAT_DEFINITIONS: readonly StatDefinition[] = [
  {
    key: 'activeBookings',
    title: 'Active Bookings',
    icon: CalendarCheck,
    color: 'green',
    subtitle: (s) => count(s.pendingBookings, 'pending confirmation', 'pending confirmation'),
  },
  {
    key: 'totalPatients',
    title: 'Total Patients',
    icon: Users,
    color: 'blue',
    subtitle: (s) =>
      s.upcomingWeek === undefined ? undefined : `${s.upcomingWeek} tests in the next 7 days`,
  },
  {
    key: 'todaysPickups',
    title: "Today's Pickups",
    icon: Truck,
    color: 'purple',
    subtitle: (s) => count(s.todaysReturns, 'return today', 'returns today'),
  },
  {
    key: 'availableKits',
    // Free to book today, not "on the shelf" (Inventory shows both, counted the same way).
    title: frontDeskMessages.kitsFreeTodayTitle,
    icon: Package,
    color: 'amber',
    subtitle: (s) =>
      s.kitsOnShelf !== undefined && s.kitsInUse !== undefined && s.totalKits !== undefined
        ? frontDeskMessages.kitsSummary(s.kitsOnShelf, s.kitsInUse, s.totalKits)
        : count(s.totalKits, 'kit in all', 'kits in all'),
  },
];

/** The dashboard's numbers. While loading every card shows its loading state. */
export function StatCards({ stats, loading = false }: { stats: Stats | undefined; loading?: boolean }) {
  const shown = loading ? STAT_DEFINITIONS : STAT_DEFINITIONS.filter((d) => stats?.[d.key] !== undefined);
  if (shown.length === 0) return null;
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {shown.map((d) => (
        <StatCard
          key={d.key}
          title={d.title}
          value={stats?.[d.key]}
          icon={d.icon}
          color={d.color}
          loading={loading}
          subtitle={stats ? d.subtitle(stats) : undefined}
        />
      ))}
    </div>
  );
}
