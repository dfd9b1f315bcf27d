import { parseTrustedList, trustedCertificates, type TrustedList } from '../domain/trusted-list';
import { config } from '../lib/config';
import { logger } from '../lib/logger';
import { trigger } from '../lib/observability';
import { readTrustList, replaceTrustAnchors, type TrustListRecord } from '../lib/trust-store';

/** how long the download may take, body included */
export const TRUSTED_LIST_TIMEOUT_MS = 30_000;
/** a larger answer is not the list (AgID's is a few MB) */
export const TRUSTED_LIST_MAX_BYTES = 32 * 1024 * 1024;

export interface TrustedListRun extends TrustListRecord {
  added: number;
  removed: number;
}

/**
 * Scheduled (rate(1 day)): downloads the trusted list (TRUSTED_LIST_URL, AgID's TSL-IT),
 * keeps its granted qualified CAs (domain/trusted-list.ts) and makes their certificates the
 * trust anchors (lib/trust-store.ts). The anchors are replaced only by a list that was
 * downloaded, parses, gives at least one certificate and is not older (lower
 * TSLSequenceNumber) than the one stored; otherwise the previous anchors stay, the error is
 * logged and thrown: the invocation fails (retried by Lambda, then the failed-events queue and
 * its alarm). The local runtime never runs it on a timer (`localSchedule: false`).
 */
export const handler = trigger('refreshTrustedList', async (): Promise<TrustedListRun> => refreshTrustedList());

export async function refreshTrustedList(now = new Date()): Promise<TrustedListRun> {
  const source = config().TRUSTED_LIST_URL;
  const refuse = (why: string, cause?: unknown): never => {
    logger.error('Trusted list refused: the previous trust anchors stay', { source, why, ...(cause ? { error: cause as Error } : {}) });
    throw new Error(`Trusted list ${source} refused: ${why}`, { cause });
  };

  let xml: string;
  try {
    xml = await download(source);
  } catch (err) {
    return refuse(`download failed (${(err as Error).message})`, err);
  }
  let list: TrustedList;
  try {
    list = parseTrustedList(xml);
  } catch (err) {
    return refuse((err as Error).message, err);
  }
  const certificates = trustedCertificates(list);
  if (certificates.length === 0) return refuse('no certificate of a granted qualified CA in the list');
  const previous = await readTrustList();
  if (previous?.sequenceNumber != null && list.sequenceNumber != null && list.sequenceNumber < previous.sequenceNumber) {
    return refuse(`sequence number ${list.sequenceNumber} is older than the stored ${previous.sequenceNumber}`);
  }
  if (list.nextUpdate && Date.parse(list.nextUpdate) < now.getTime()) {
    // AgID is sometimes late: an overdue list is still the latest one, kept but reported
    logger.warn('Trusted list past its next update', { source, nextUpdate: list.nextUpdate });
  }

  const { record, added, removed } = await replaceTrustAnchors(
    certificates.map((b64) => new Uint8Array(Buffer.from(b64, 'base64'))),
    { source, fetchedAt: now.toISOString(), sequenceNumber: list.sequenceNumber, nextUpdate: list.nextUpdate, issuedAt: list.issuedAt, territory: list.territory },
  );
  logger.info('Trusted list refreshed', { source, sequenceNumber: record.sequenceNumber, authorities: list.authorities.length, anchors: record.count, added, removed });
  return { ...record, added, removed };
}

async function download(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(TRUSTED_LIST_TIMEOUT_MS), headers: { accept: 'application/xml, text/xml;q=0.9, */*;q=0.1' } });
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > TRUSTED_LIST_MAX_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`${declared} bytes, more than ${TRUSTED_LIST_MAX_BYTES}`);
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > TRUSTED_LIST_MAX_BYTES) throw new Error(`${bytes.length} bytes, more than ${TRUSTED_LIST_MAX_BYTES}`);
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}
