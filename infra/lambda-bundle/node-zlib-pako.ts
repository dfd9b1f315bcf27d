/**
 * Stands for `pako` in the Lambda bundles (alias in ./index.ts): pdf-lib and its font metrics
 * call only `pako.deflate(bytes)` and `pako.inflate(bytes)` (zlib format, default level), which
 * Node's own zlib does natively; the 47 KB JavaScript port is not shipped.
 */
import { deflateSync, inflateSync } from 'node:zlib';

const bytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

export const deflate = (data: Uint8Array): Uint8Array => bytes(deflateSync(data));
export const inflate = (data: Uint8Array): Uint8Array => bytes(inflateSync(data));

export default { deflate, inflate };
