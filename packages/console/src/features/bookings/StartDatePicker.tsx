import { addDays, type TestType } from '@wellrest/core';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import {
  availabilityLevel,
  type DayAvailability,
  isSelectableStartDate,
  monthOf,
  monthWeeks,
  shiftMonth,
} from './bookingCalendar';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

const monthTitle = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const fullDate = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const asUtc = (date: string) => new Date(`${date}T00:00:00Z`);

const LEVEL_TEXT: Record<DayAvailability, string> = {
  available: 'available',
  limited: 'limited availability',
  unavailable: 'no kits free',
};

const LEVEL_CLASSES: Record<DayAvailability, string> = {
  available: 'border-green-300 bg-green-100 text-green-900 hover:bg-green-200',
  limited: 'border-amber-300 bg-amber-100 text-amber-900 hover:bg-amber-200',
  unavailable: 'border-transparent text-slate-800 hover:bg-slate-100',
};

/** The accessible name of a day button: the full date and, for a choosable day, its availability. */
export function dayButtonLabel(date: string, level: DayAvailability | null): string {
  const text = fullDate.format(asUtc(date));
  return level ? `${text}, ${LEVEL_TEXT[level]}` : `${text}, not a start day`;
}

/**
 * The start-date calendar of the booking dialog: one month of day buttons, Sunday first. Days
 * that cannot start a test (past days, Friday to Sunday, and Monday or Tuesday when the return
 * would fall on a weekend) are disabled; the others are green (available) or amber (limited)
 * from the free kits of `freeKits`. Arrow keys move between days, one tab stop for the grid.
 */
export function StartDatePicker({
  value,
  onChange,
  today,
  testType,
  freeKits,
  onMonthChange,
  labelledBy,
}: {
  value: string | null;
  onChange: (date: string) => void;
  today: string;
  testType: TestType;
  /** Free kits for a test starting on the date. */
  freeKits: (date: string) => number;
  /** Called with the first day of the month in view whenever it changes. */
  onMonthChange?: (month: string) => void;
  labelledBy?: string;
}) {
  const [month, setMonthState] = useState(() => monthOf(value ?? today));
  const [focusDate, setFocusDate] = useState<string>(value ?? today);
  const moveFocus = useRef(false);
  const grid = useRef<HTMLFieldSetElement>(null);
  const weeks = useMemo(() => monthWeeks(month), [month]);

  function setMonth(next: string) {
    setMonthState(next);
    onMonthChange?.(next);
  }

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`[data-date="${focusDate}"]`)?.focus();
  });

  const tabStop = weeks.flat().includes(focusDate)
    ? focusDate
    : value && monthOf(value) === month
      ? value
      : month;

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, date: string) {
    const step: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
    const offset = step[event.key];
    if (offset === undefined) return;
    event.preventDefault();
    const next = addDays(date, offset);
    setFocusDate(next);
    setMonth(monthOf(next));
    moveFocus.current = true;
  }

  return (
    <div className="rounded-lg border border-slate-200 p-3">
      <div className="mb-2 flex items-center justify-between gap-2">
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Previous month"
          disabled={month <= monthOf(today)}
          onClick={() => setMonth(shiftMonth(month, -1))}
        >
          <ChevronLeft aria-hidden />
        </Button>
        <p className="text-sm font-medium text-slate-900" aria-live="polite">
          {monthTitle.format(asUtc(month))}
        </p>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Next month"
          onClick={() => setMonth(shiftMonth(month, 1))}
        >
          <ChevronRight aria-hidden />
        </Button>
      </div>
      <fieldset ref={grid} aria-labelledby={labelledBy} className="m-0 grid min-w-0 gap-1 border-0 p-0">
        <div className="grid grid-cols-7 gap-1" aria-hidden>
          {WEEKDAYS.map((day) => (
            <span key={day} className="py-1 text-center text-xs font-medium text-slate-500">
              {day}
            </span>
          ))}
        </div>
        {weeks.map((week) => (
          <div key={week.find(Boolean) ?? ''} className="grid grid-cols-7 gap-1">
            {week.map((date, index) => {
              if (!date) return <span key={`blank-${WEEKDAY_NAMES[index]}`} />;
              const selectable = isSelectableStartDate(date, today, testType);
              const level = selectable ? availabilityLevel(freeKits(date)) : null;
              const selected = date === value;
              return (
                <button
                  key={date}
                  type="button"
                  data-date={date}
                  tabIndex={date === tabStop ? 0 : -1}
                  aria-label={dayButtonLabel(date, level)}
                  aria-pressed={selected}
                  aria-disabled={!selectable}
                  aria-current={date === today ? 'date' : undefined}
                  onKeyDown={(event) => onKeyDown(event, date)}
                  onFocus={() => setFocusDate(date)}
                  onClick={() => {
                    if (selectable) onChange(date);
                  }}
                  className={cn(
                    'h-9 rounded-md border text-sm tabular-nums transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent-600',
                    level ? LEVEL_CLASSES[level] : 'cursor-not-allowed border-transparent text-slate-300',
                    date === today && 'font-semibold underline underline-offset-2',
                    selected && 'border-accent-800 bg-accent-700 text-white hover:bg-accent-700',
                  )}
                >
                  {Number(date.slice(8, 10))}
                </button>
              );
            })}
          </div>
        ))}
      </fieldset>
      <div className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
        <span className="flex items-center gap-1.5">
          <span aria-hidden className="size-3 rounded-sm border border-green-300 bg-green-100" />
          Available
        </span>
        <span className="flex items-center gap-1.5">
          <span aria-hidden className="size-3 rounded-sm border border-amber-300 bg-amber-100" />
          Limited availability
        </span>
      </div>
    </div>
  );
}
