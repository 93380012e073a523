/**
 * Dark mode follows the system: Bootstrap reads `data-bs-theme` on <html>, and so do the design
 * tokens in styles.css. Set before the first render, so a dark system never sees a light flash,
 * and kept in step when the system switches (at sunset, say) while the app is open.
 */
export function followSystemColorScheme(root: HTMLElement = document.documentElement): void {
  const dark = window.matchMedia('(prefers-color-scheme: dark)');
  const apply = () => root.setAttribute('data-bs-theme', dark.matches ? 'dark' : 'light');
  apply();
  dark.addEventListener('change', apply);
}
