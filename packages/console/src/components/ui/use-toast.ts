import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '@wellrest/core';
import { type ReactNode, useEffect, useState } from 'react';

/*
 * A small store of toasts shared by the whole app (spec §9): at most TOAST_LIMIT visible, and a
 * dismissed toast stays in the store for TOAST_REMOVE_DELAY_MS so its exit animation and
 * screen-reader announcement are never cut short.
 */

export type ToastVariant = 'default' | 'destructive' | 'success';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  action?: ReactNode;
}

export interface ToastEntry extends ToastInput {
  id: string;
  open: boolean;
}

type Listener = (toasts: ToastEntry[]) => void;

let toasts: ToastEntry[] = [];
let counter = 0;
const listeners = new Set<Listener>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(): void {
  for (const listener of listeners) listener(toasts);
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      toasts = toasts.filter((entry) => entry.id !== id);
      emit();
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Closes one toast, or all when no id is given. */
export function dismissToast(id?: string): void {
  toasts = toasts.map((entry) => {
    if (id !== undefined && entry.id !== id) return entry;
    scheduleRemoval(entry.id);
    return { ...entry, open: false };
  });
  emit();
}

/** Shows a toast; returns its id and a function to dismiss it. */
export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  toasts = [{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT);
  emit();
  return { id, dismiss: () => dismissToast(id) };
}

export function useToast() {
  const [state, setState] = useState(toasts);
  useEffect(() => {
    listeners.add(setState);
    return () => {
      listeners.delete(setState);
    };
  }, []);
  return { toasts: state, toast, dismiss: dismissToast };
}
