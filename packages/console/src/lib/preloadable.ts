import { type ComponentType, createElement, lazy } from 'react';

/** A lazily loaded component that can start loading early: see {@link preloadable}. */
export type Preloadable<P extends object> = ComponentType<P> & {
  /** Starts loading the module (once); resolves when it is there. */
  preload: () => Promise<unknown>;
};

/**
 * React.lazy for a screen whose code may be asked for before it renders (the first screen of a
 * page load). Once its module has loaded it renders at once; React.lazy alone would still
 * suspend for a tick, show the fallback, and then hold the screen back by its fallback throttle
 * (some 300 ms) before revealing it.
 */
export function preloadable<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // Let a later preload try again (a chunk can fail to load on a flaky connection).
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(preload);
  // biome-ignore lint/correctness/noComponentHookFactories: a factory called once per screen at module level, like React.lazy, so the component's identity never changes between renders
  function PreloadableComponent(props: P) {
    return createElement((loaded ?? Lazy) as ComponentType<P>, props);
  }
  return Object.assign(PreloadableComponent, { preload });
}
