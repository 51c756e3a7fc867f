import { TRUSTED_DEVICE_DAYS } from '@wellrest/core';
import { Smartphone } from 'lucide-react';
import { formatDateTime } from '@/lib/utils';
import { getDeviceId } from '../auth/deviceId';
import { RevocableListCard } from './RevocableListCard';

/** A trusted device as `GET /api/auth/trusted-devices` lists it (an array, newest first). */
interface TrustedDeviceRow {
  id: string;
  /** The id the browser sent when it was trusted (this browser's when it matches local storage). */
  deviceId: string;
  createdAt: string;
  expiresAt: string;
  userAgent: string | null;
}

/** Devices that skip the two-factor prompt for TRUSTED_DEVICE_DAYS days, each revocable. */
export function TrustedDevicesCard() {
  const thisDevice = getDeviceId();
  return (
    <RevocableListCard<TrustedDeviceRow>
      path="/api/auth/trusted-devices"
      title="Trusted devices"
      description={`Devices where you chose to skip the authentication code for ${TRUSTED_DEVICE_DAYS} days.`}
      emptyIcon={<Smartphone className="size-6" aria-hidden />}
      emptyTitle="No trusted devices"
      revokedToast="Device no longer trusted"
      isThisBrowser={(device) => device.deviceId === thisDevice}
      detail={(device) =>
        `Trusted ${formatDateTime(device.createdAt)} · Until ${formatDateTime(device.expiresAt)}`
      }
    />
  );
}
