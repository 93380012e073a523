/** Where to go after signing in: the `next` parameter if it is a path of ours, else the root. */
export function safeNextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  // Only same-site paths: "//evil.example" or "/\evil.example" would leave the site.
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

export function loginPathFor(location: { pathname: string; search: string }): string {
  const next = `${location.pathname}${location.search}`;
  return next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}
