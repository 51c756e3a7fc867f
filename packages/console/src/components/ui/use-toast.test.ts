import { act, renderHook } from '@testing-library/react';
import { messages, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '@wellrest/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, toast, useToast } from './use-toast';

afterEach(() => {
  act(() => {
    dismissToast();
    vi.runOnlyPendingTimers();
  });
  vi.useRealTimers();
});

describe('toast store (spec §9)', () => {
  it(`shows at most ${TOAST_LIMIT} toast, the newest`, () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useToast());
    act(() => {
      toast(messages.login.twoFactorRequired);
      toast(messages.login.success);
    });
    expect(result.current.toasts).toHaveLength(TOAST_LIMIT);
    expect(result.current.toasts[0]?.title).toBe(messages.login.success.title);
  });

  it('keeps a dismissed toast until the removal delay has passed', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useToast());
    let id = '';
    act(() => {
      id = toast({ variant: 'destructive', ...messages.privacy.acknowledgeFailed }).id;
    });
    act(() => dismissToast(id));
    expect(result.current.toasts[0]?.open).toBe(false);
    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1));
    expect(result.current.toasts).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.toasts).toHaveLength(0);
  });
});
