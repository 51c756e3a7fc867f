import { useQueryClient } from '@tanstack/react-query';
import { clinicalMessages as cm } from '@wellrest/core';
import { NativeSelect } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useLinkUserPhysician, usePhysicians } from './clinicalApi';

/** /admin/users: which physician record a physician user is; choosing none unlinks. */
export function PhysicianLinkSelect({
  user,
}: {
  user: { id: number; username: string; physicianId: number | null };
}) {
  const physicians = usePhysicians({});
  const link = useLinkUserPhysician();
  const client = useQueryClient();
  return (
    <NativeSelect
      aria-label={`${cm.physicianRecord}: ${user.username}`}
      className="mt-1 max-w-64"
      value={user.physicianId ?? ''}
      disabled={physicians.isPending || link.isPending}
      onChange={async (event) => {
        const physicianId = event.target.value === '' ? null : Number(event.target.value);
        try {
          await link.mutateAsync({ userId: user.id, physicianId });
          await client.invalidateQueries({ queryKey: ['/api/admin/users'] });
          toast({
            title: physicianId === null ? cm.physicianUnlinked : cm.physicianLinked,
            variant: 'success',
          });
        } catch (error) {
          toast({ title: cm.linkPhysician, description: errorMessage(error, ''), variant: 'destructive' });
        }
      }}
    >
      <option value="">{cm.notLinked}</option>
      {(physicians.data ?? []).map((p) => (
        <option key={p.id} value={p.id}>
          {p.name} · NPI {p.npi}
        </option>
      ))}
    </NativeSelect>
  );
}
