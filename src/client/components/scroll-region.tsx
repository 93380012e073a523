import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useI18n } from '../i18n/use-i18n.ts';

/**
 * A box that scrolls sideways (or down) when its table is wider than the screen. Focusable and
 * named, so a keyboard can reach and scroll it and a screen reader says what it holds. Its edges
 * shade where there is more to see (styles.css); with `hint`, a line above it says so in words
 * while the table is wider than the box (a phone).
 */
export function ScrollRegion({
  label,
  className = '',
  style,
  hint = false,
  children,
}: {
  label: string;
  className?: string;
  style?: CSSProperties;
  hint?: boolean;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [wider, setWider] = useState(false);
  const { t } = useI18n();
  useEffect(() => {
    const element = box.current;
    if (!hint || !element) return;
    const measure = () => setWider(element.scrollWidth > element.clientWidth + 1);
    measure();
    // Every browser Balance supports has it; a test's document may not, and measures once.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [hint]);
  return (
    <>
      {hint && wider && (
        <p className="small text-body-secondary mb-1 d-print-none" data-testid="scroll-hint">
          {t('common.scroll-sideways')}
        </p>
      )}
      <div
        ref={box}
        className={`table-responsive scroll-region ${className}`.trim()}
        style={style}
        role="region"
        aria-label={label}
        tabIndex={0}
      >
        {children}
      </div>
    </>
  );
}
