import { useQuery } from '@tanstack/react-query';
import { formatDate } from '@wellrest/core';
import { Download, FileSignature } from 'lucide-react';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { rowsOf } from '@/lib/lists';
import { formatDateTime } from '@/lib/utils';

/** A signed agreement as `GET /api/agreements` lists it. */
interface SignedAgreement {
  id: number;
  bookingId: number;
  patientName: string;
  signedAt: string;
  signerName: string;
}

const copy = {
  title: 'Consents',
  description: 'Signed home sleep test agreements. Each download is recorded in the audit log.',
  empty: 'No signed agreements yet',
  emptyBody: 'Agreements appear here once patients sign them.',
  patient: 'Patient',
  booking: 'Booking',
  signer: 'Signed by',
  signedAt: 'Signed',
  download: 'PDF',
  downloadLabel: (id: number) => `Download agreement ${id} as PDF`,
} as const;

/** /consents: the signed agreements with their PDFs. */
export default function ConsentsPage() {
  const agreements = useQuery<unknown>({ queryKey: ['/api/agreements'] });
  const rows = rowsOf<SignedAgreement>(agreements.data, 'agreements');
  return (
    <>
      <PageHeader title={copy.title} description={copy.description} />
      <QueryState query={agreements}>
        {rows.length === 0 ? (
          <Card>
            <CardContent>
              <EmptyState icon={<FileSignature className="size-8" aria-hidden />} title={copy.empty}>
                {copy.emptyBody}
              </EmptyState>
            </CardContent>
          </Card>
        ) : (
          <Card>
            <CardContent className="overflow-x-auto p-0">
              <table className="w-full text-left text-sm">
                <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th className="px-4 py-3 font-medium">{copy.patient}</th>
                    <th className="px-4 py-3 font-medium">{copy.booking}</th>
                    <th className="px-4 py-3 font-medium">{copy.signer}</th>
                    <th className="px-4 py-3 font-medium">{copy.signedAt}</th>
                    <th className="px-4 py-3">
                      <span className="sr-only">Signed PDF</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.map((row) => (
                    <tr key={row.id}>
                      <td className="px-4 py-3 font-medium text-slate-900">{row.patientName}</td>
                      <td className="px-4 py-3 text-slate-700">#{row.bookingId}</td>
                      <td className="px-4 py-3 text-slate-700">{row.signerName}</td>
                      <td className="px-4 py-3 text-slate-700" title={formatDateTime(row.signedAt)}>
                        {formatDate(row.signedAt)}
                      </td>
                      <td className="px-4 py-3 text-right">
                        <Button asChild variant="outline" size="sm">
                          <a
                            href={`/api/agreements/${row.id}/pdf`}
                            download
                            aria-label={copy.downloadLabel(row.id)}
                          >
                            <Download aria-hidden />
                            {copy.download}
                          </a>
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </CardContent>
          </Card>
        )}
      </QueryState>
    </>
  );
}
