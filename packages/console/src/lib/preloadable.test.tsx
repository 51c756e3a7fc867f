import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { expect, it } from 'vitest';
import { preloadable } from './preloadable';

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

it('renders at once, without its fallback, once preloaded', async () => {
  const Screen = preloadable(async () => ({ default: Hello }));
  await Screen.preload();
  render(
    <Suspense fallback={<p>Loading</p>}>
      <Screen name="Ada" />
    </Suspense>,
  );
  expect(screen.getByText('Hello Ada')).toBeTruthy();
  expect(screen.queryByText('Loading')).toBeNull();
});

it('suspends like React.lazy when rendered before its code is there, and loads it once', async () => {
  let loads = 0;
  const Screen = preloadable(async () => {
    loads += 1;
    return { default: Hello };
  });
  render(
    <Suspense fallback={<p>Loading</p>}>
      <Screen name="Ben" />
    </Suspense>,
  );
  expect(screen.getByText('Loading')).toBeTruthy();
  await act(async () => {
    await Screen.preload();
  });
  expect(await screen.findByText('Hello Ben')).toBeTruthy();
  expect(loads).toBe(1);
});

it('tries again after a failed load', async () => {
  let attempt = 0;
  const Screen = preloadable(async () => {
    attempt += 1;
    if (attempt === 1) throw new Error('chunk failed');
    return { default: Hello };
  });
  await expect(Screen.preload()).rejects.toThrow('chunk failed');
  await Screen.preload();
  expect(attempt).toBe(2);
});
