import { isIsoDate, KitType, messages, TestType } from '@wellrest/core';
import { CalendarPlus } from 'lucide-react';
import { useState } from 'react';
import { useSearch } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { BookingDialog } from './BookingDialog';

/**
 * /booking: the booking dialog on its own page, open on arrival. Links may preselect with
 * `?date=YYYY-MM-DD`, `?patientId=`, `?kitType=` and `?testType=`.
 */
export default function BookingPage() {
  const params = new URLSearchParams(useSearch());
  const [open, setOpen] = useState(true);
  const date = params.get('date');
  const patientId = Number(params.get('patientId')) || undefined;
  const kitType = KitType.safeParse(params.get('kitType'));
  const testType = TestType.safeParse(params.get('testType'));

  return (
    <>
      <PageHeader
        title={messages.booking.newBooking}
        description="Book a home sleep test for a new or existing patient."
      />
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
          <span className="grid size-12 place-content-center rounded-full bg-accent-50 text-accent-700">
            <CalendarPlus className="size-6" aria-hidden />
          </span>
          <p className="max-w-md text-sm text-slate-600">
            Choose the patient, the test duration, a kit type and a start date. Green dates have kits free;
            amber dates have one left.
          </p>
          <Button onClick={() => setOpen(true)}>{messages.booking.newBooking}</Button>
        </CardContent>
      </Card>
      <BookingDialog
        open={open}
        onOpenChange={setOpen}
        patientId={patientId}
        preselectedDate={date && isIsoDate(date) ? date : undefined}
        defaultKitType={kitType.success ? kitType.data : undefined}
        defaultTestType={testType.success ? testType.data : undefined}
      />
    </>
  );
}
