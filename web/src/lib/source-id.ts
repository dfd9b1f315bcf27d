/**
 * The lead source: the `?id=` of the landing URL (spec 000 section 3, properties.source_id).
 * Captured as soon as the home page opens and kept in local storage, so it reaches the
 * submission even if the visitor browses elsewhere first or reloads without the query.
 * Tiny on purpose: the home route imports it eagerly, the wizard lazily.
 */
const KEY = 'opzione-casa:source-id';

/** Non-empty, at most 100 characters; the server checks the shape and drops a malformed one. */
const fromQuery = (search: string) => {
  const id = new URLSearchParams(search).get('id')?.trim();
  return id && id.length <= 100 ? id : null;
};

export function captureSourceId(search: string): void {
  const id = fromQuery(search);
  if (!id) return;
  try {
    localStorage.setItem(KEY, id);
  } catch {
    // storage unavailable (private mode): the wizard still reads the URL
  }
}

/** The stored source id, or the one in the URL, or null. */
export function readSourceId(search = window.location.search): string | null {
  const fromUrl = fromQuery(search);
  if (fromUrl) return fromUrl;
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}
