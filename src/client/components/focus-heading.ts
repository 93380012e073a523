import { useEffect, useRef, type RefObject } from 'react';

/**
 * After a navigation inside the app, focus moves to the new page's main heading (its h1), as a
 * full page load would put a screen reader at the top: otherwise focus stays on the link just
 * used, which may no longer exist. Pages load their code and data on demand, so the heading is
 * waited for; the first page of a visit is left alone (the browser starts at the top anyway).
 */
export function useFocusHeadingOnNavigation(main: RefObject<HTMLElement | null>, path: string) {
  const firstPath = useRef(path);
  const navigated = useRef(false);
  useEffect(() => {
    if (!navigated.current && path === firstPath.current) return;
    navigated.current = true;
    const container = main.current;
    if (!container) return;
    const focusHeading = () => {
      const heading = container.querySelector('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(container, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [main, path]);
}
