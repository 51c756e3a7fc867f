import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messages, TRUSTED_DEVICE_DAYS } from '@wellrest/core';
import { Smartphone } from 'lucide-react';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { describeUserAgent } from '@/lib/userAgent';
import { formatDateTime } from '@/lib/utils';
import { getDeviceId } from '../auth/deviceId';

/** A trusted device as `GET /api/auth/trusted-devices` lists it (an array, newest first). */
interface TrustedDeviceRow {
  id: string;
  /** The id the browser sent when it was trusted (this browser's when it matches local storage). */
  deviceId: string;
  createdAt: string;
  expiresAt: string;
  userAgent: string | null;
}

const DEVICES_KEY = ['/api/auth/trusted-devices'] as const;

/** Devices that skip the two-factor prompt for TRUSTED_DEVICE_DAYS days, each revocable. */
export function TrustedDevicesCard() {
  const queryClient = useQueryClient();
  const devices = useQuery<TrustedDeviceRow[]>({ queryKey: DEVICES_KEY });
  const rows = devices.data ?? [];
  const thisDevice = getDeviceId();

  const revoke = useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/auth/trusted-devices/${encodeURIComponent(id)}`),
    onSuccess: () => {
      toast({ title: 'Device no longer trusted' });
      void queryClient.invalidateQueries({ queryKey: DEVICES_KEY });
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: messages.common.error,
        description: errorMessage(error, messages.common.unexpectedError),
      }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Trusted devices</CardTitle>
        <CardDescription>
          Devices where you chose to skip the authentication code for {TRUSTED_DEVICE_DAYS} days.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState query={devices}>
          {rows.length === 0 ? (
            <EmptyState icon={<Smartphone className="size-6" aria-hidden />} title="No trusted devices" />
          ) : (
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
              {rows.map((device) => (
                <li
                  key={device.id}
                  className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                      {describeUserAgent(device.userAgent)}
                      {device.deviceId === thisDevice && <Badge tone="accent">This browser</Badge>}
                    </p>
                    <p className="mt-1 text-xs text-slate-600">
                      Trusted {formatDateTime(device.createdAt)} · Until {formatDateTime(device.expiresAt)}
                    </p>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => revoke.mutate(device.id)}
                    disabled={revoke.isPending && revoke.variables === device.id}
                  >
                    Revoke
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
