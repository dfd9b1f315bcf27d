/** What the seller's own use cases share: the path parameter, the ownership rule and reads, the item reader. */
export { str, type Item } from './item';
export { propertyParams, isOwner, requireOwnedProperty } from './property';
export { requireOwnedDossier } from './dossier';
