/**
 * Italian provinces and comuni. `provinces()` is small and synchronous; the comuni come
 * from a separate chunk loaded on demand, so the home route does not carry ~7,900 names:
 *
 *   const places = await loadComuni();
 *   places.comuniOf('MI'); places.isComuneOf('MI', 'Milano');
 */
export { provinces, provinceByCode, isProvinceCode, normalizePlaceName, PROVINCES, PLACES_SOURCE, type Province } from './provinces';
export type { Comune } from './comuni';

export type ComuniModule = typeof import('./comuni');

let loading: Promise<ComuniModule> | undefined;

/** Loads the comuni chunk once (a dynamic import: a separate chunk in the SPA build). */
export function loadComuni(): Promise<ComuniModule> {
  loading ??= import('./comuni');
  return loading;
}
