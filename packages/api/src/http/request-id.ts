import { randomUUID } from 'node:crypto';

/** An incoming id is kept when it is well formed (a UUID or a proxy's token), else one is made. */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/;

export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && WELL_FORMED.test(header) ? header : randomUUID();
}
