import { createElement, lazy, type ComponentType } from 'react';

/**
 * A lazily loaded screen that can be asked for ahead of time. Once its code is there it renders
 * at once, without suspending: React shows a suspended screen's content no sooner than 300 ms
 * after its fallback appeared, so a screen whose code came early would still wait that long.
 */
export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (module) => (loaded = module.default),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Preloadable(props: P) {
    return loaded ? createElement(loaded, props) : createElement(Lazy, props);
  }
  return Object.assign(Preloadable, { preload });
}
