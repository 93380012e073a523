import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FlashBar, FlashProvider, useFlash } from './flash.tsx';

function Trigger({ text, variant }: { text: string; variant: 'success' | 'danger' }) {
  const showFlash = useFlash();
  return (
    <button type="button" onClick={() => showFlash(text, variant)}>
      show
    </button>
  );
}

function renderWithTrigger(text: string, variant: 'success' | 'danger') {
  return render(
    <FlashProvider>
      <FlashBar />
      <Trigger text={text} variant={variant} />
    </FlashProvider>,
  );
}

describe('the flash message bar', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows a green success message in a polite live region, gone after 3000 ms', () => {
    renderWithTrigger('New Client Added', 'success');
    act(() => screen.getByRole('button', { name: 'show' }).click());
    const message = screen.getByText('New Client Added');
    expect(message).toHaveClass('bg-success');
    expect(screen.getByRole('status')).toContainElement(message);
    act(() => {
      vi.advanceTimersByTime(2999);
    });
    expect(screen.getByText('New Client Added')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('New Client Added')).not.toBeInTheDocument();
  });

  it('shows a red failure message as an alert', () => {
    renderWithTrigger('Adding Failed', 'danger');
    act(() => screen.getByRole('button', { name: 'show' }).click());
    const message = screen.getByText('Adding Failed');
    expect(message).toHaveClass('bg-danger');
    expect(screen.getByRole('alert')).toContainElement(message);
  });

  it('restarts the 3000 ms for a newer message', () => {
    renderWithTrigger('Client Updated', 'success');
    act(() => screen.getByRole('button', { name: 'show' }).click());
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    act(() => screen.getByRole('button', { name: 'show' }).click());
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.getByText('Client Updated')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryByText('Client Updated')).not.toBeInTheDocument();
  });
});
