import type { CSSProperties, ReactNode } from 'react';

/**
 * A box that scrolls sideways (or down) when its table is wider than the screen. Focusable and
 * named, so a keyboard can reach and scroll it and a screen reader says what it holds.
 */
export function ScrollRegion({
  label,
  className = '',
  style,
  children,
}: {
  label: string;
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <div
      className={`table-responsive scroll-region ${className}`.trim()}
      style={style}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      {children}
    </div>
  );
}
