import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { AUTOSAVE_DELAY_MS, useAutosave } from './useAutosave';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it('saves once typing pauses, with the latest value, and says so', async () => {
  const save = vi.fn(async (_value: string) => undefined);
  const { result, rerender } = renderHook(({ value }) => useAutosave(value, save), {
    initialProps: { value: 'a' },
  });
  expect(result.current.state).toBe('idle');
  rerender({ value: 'ab' });
  rerender({ value: 'abc' });
  expect(result.current.state).toBe('pending');
  await act(async () => {
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 1);
  });
  expect(save).not.toHaveBeenCalled();
  await act(async () => {
    await vi.advanceTimersByTimeAsync(1);
  });
  expect(save).toHaveBeenCalledTimes(1);
  expect(save).toHaveBeenLastCalledWith('abc');
  expect(result.current.state).toBe('saved');
});

it('reports a failed save, and saves what is waiting when the page is left', async () => {
  const save = vi.fn(async (_value: string) => {
    throw new Error('offline');
  });
  const { result, rerender, unmount } = renderHook(({ value }) => useAutosave(value, save), {
    initialProps: { value: 'a' },
  });
  rerender({ value: 'b' });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
  });
  expect(result.current.state).toBe('failed');
  rerender({ value: 'c' });
  unmount();
  expect(save).toHaveBeenLastCalledWith('c');
});

it('does not save while turned off (a draft with bad input)', async () => {
  const save = vi.fn(async (_value: string) => undefined);
  const { rerender } = renderHook(({ value, enabled }) => useAutosave(value, save, { enabled }), {
    initialProps: { value: 'a', enabled: true },
  });
  rerender({ value: 'b', enabled: false });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2);
  });
  expect(save).not.toHaveBeenCalled();
});
