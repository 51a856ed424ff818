import { Component, type ReactNode } from 'react';
import { ErrorScreen } from './ErrorScreen';

interface Props {
  /** When this changes (the route), a shown error is cleared. */
  resetKey: string;
  children: ReactNode;
}

/** Shows "something went wrong" when a screen throws, and resets when the route changes. */
export class ErrorBoundary extends Component<Props, { error: Error | null; key: string }> {
  state = { error: null as Error | null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: { error: Error | null; key: string }) {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  render() {
    if (this.state.error) return <ErrorScreen kind="generic" />;
    return this.props.children;
  }
}
