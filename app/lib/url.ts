/** The current page's path and query with one search parameter set or removed. */
export function withSearchParam(location: { pathname: string; search: string }, key: string, value: string | null) {
  const params = new URLSearchParams(location.search);
  if (value === null) params.delete(key);
  else params.set(key, value);
  const search = params.toString();
  return search ? `${location.pathname}?${search}` : location.pathname;
}

/** The product page's path: one per catalogue product. */
export function productPath(productId: string) {
  return `/shop/${encodeURIComponent(productId)}`;
}
