import { Component, type ReactNode } from 'react';
import { PageLoadError } from './page-status.tsx';

interface Props {
  children: ReactNode;
  /** The error is forgotten when this changes: another page starts afresh. */
  resetKey: string;
}

/**
 * Catches a page that fails while rendering, most often because its code could not be loaded
 * (the network dropped, or a new version replaced the file): the navbar stays, the page says
 * what happened, and "Try again" reloads the app.
 */
export class PageErrorBoundary extends Component<Props, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidUpdate(previous: Props): void {
    if (previous.resetKey !== this.props.resetKey && this.state.error)
      this.setState({ error: null });
  }

  override render(): ReactNode {
    if (this.state.error)
      return <PageLoadError error={this.state.error} onRetry={() => window.location.reload()} />;
    return this.props.children;
  }
}
