export { table } from './db';
export { str, type Item } from './item';
export { propertyParams, isOwner, requireOwnedProperty } from './property';
export { requireOwnedDossier } from './dossier';
