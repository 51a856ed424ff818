import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { reportError } from '../app/report';
import { ErrorScreen, errorKindOf } from './ErrorScreen';

/** What a boundary shows instead of its children once one of them threw. */
export type Fallback = (error: unknown) => ReactNode;

/**
 * An error boundary made without a fallback (spec §8: «raises a configuration error»). Thrown by
 * the boundary's constructor, so at its first render — whether or not anything below it ever
 * throws — to the boundary above it, or, with none, out of the React root (which unmounts it).
 */
export class ErrorBoundaryConfigError extends Error {
  constructor() {
    super('ErrorBoundary needs a fallback: <ErrorBoundary fallback={(error) => …}>');
    this.name = 'ErrorBoundaryConfigError';
  }
}

interface Props {
  /** Required: a boundary without one throws ErrorBoundaryConfigError. */
  fallback: Fallback;
  /** When this changes (the route), a shown error is cleared and the children are tried again. */
  resetKey?: string;
  children: ReactNode;
}

interface State {
  /** What was thrown (`caught`: something was; a thrown undefined is still an error). */
  caught: boolean;
  error: unknown;
  key: string | undefined;
}

/** Shows `fallback(error)` when a child throws, reports the error, and starts over when `resetKey` changes. */
export class ErrorBoundary extends Component<Props, State> {
  constructor(props: Props) {
    super(props);
    if (typeof props.fallback !== 'function') throw new ErrorBoundaryConfigError();
    this.state = { caught: false, error: undefined, key: props.resetKey };
  }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { caught: true, error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.key ? { caught: false, error: undefined, key: props.resetKey } : null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    reportError('render', { error, componentStack: info.componentStack ?? undefined });
  }

  render() {
    return this.state.caught ? this.props.fallback(this.state.error) : this.props.children;
  }
}

/** The app's fallback: the error screen the failure calls for (`errorKindOf`), the error's text on «something went wrong». */
export const errorScreenFallback: Fallback = (error) => <ErrorScreen kind={errorKindOf(error)} error={error} />;

/**
 * The wrapper around every route (spec §2): an error screen when a screen throws or its code does
 * not load, cleared when the route changes (another path: the person went elsewhere).
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname} fallback={errorScreenFallback}>
      {children}
    </ErrorBoundary>
  );
}
