import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * An ETSI TS 119 612 trusted list (the EU "TSL", e.g. Italy's https://eidas.agid.gov.it/TL/TSL-IT.xml)
 * read for what the verification of qualified electronic signatures needs: the certificates of
 * the qualified certification authorities currently granted, the trust anchors of
 * functions/lib/trust-store.ts.
 *
 * Kept: each TSPService whose *current* ServiceInformation says
 * - ServiceTypeIdentifier CA/QC (a CA issuing qualified certificates), and
 * - ServiceStatus `granted`. Only that one: since eIDAS (1 July 2016) a qualified service is
 *   `granted` or `withdrawn`; the statuses of Directive 1999/93 (`undersupervision`,
 *   `accredited`, ...) survive only in ServiceHistory, where every service still qualified
 *   was migrated to `granted`. A list still using them as current status is not one we trust.
 *   The history is never read: a signature made today needs a CA granted today.
 * - not declared for website authentication only: an AdditionalServiceInformation naming
 *   ForWebSiteAuthentication and neither ForeSignatures nor ForeSeals means a CA of QWACs
 *   (certificates anyone with a website can buy), not of signatures. A service declaring
 *   none of the three is kept (the certificate's own QC statements then say what it is).
 * and of such a service every ServiceDigitalIdentity/DigitalId/X509Certificate (base64 DER;
 * the X509SubjectName and X509SKI ids only name the same certificate).
 *
 * The list's XMLDSig signature is not verified here: the list is trusted for the HTTPS origin
 * it is fetched from (functions/system/refresh-trusted-list.ts).
 *
 * Pure: no I/O, shared with whatever needs it (no Buffer either: atob).
 */

export const TL_SERVICE_TYPE_CA_QC = 'http://uri.etsi.org/TrstSvc/Svctype/CA/QC';
export const TL_STATUS_GRANTED = 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted';
const ASI = 'http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/';
export const TL_FOR_ESIGNATURES = `${ASI}ForeSignatures`;
export const TL_FOR_ESEALS = `${ASI}ForeSeals`;
export const TL_FOR_WEBSITE_AUTHENTICATION = `${ASI}ForWebSiteAuthentication`;

/** A granted qualified CA service and its certificates (base64 DER, as listed). */
export interface TrustedAuthority {
  /** TSPInformation/TSPName (Italian name when listed, else English, else the first) */
  provider: string;
  /** ServiceInformation/ServiceName, chosen the same way */
  service: string;
  certificates: string[];
}

export interface TrustedList {
  /** SchemeTerritory, e.g. "IT" */
  territory: string | null;
  /** TSLSequenceNumber: grows by one with each list the scheme operator issues */
  sequenceNumber: number | null;
  /** ListIssueDateTime, ISO 8601 */
  issuedAt: string | null;
  /** NextUpdate/dateTime, ISO 8601; null for a closed list */
  nextUpdate: string | null;
  authorities: TrustedAuthority[];
}

type XmlNode = Record<string, unknown>;

// Every element is an array (single or repeated alike), attributes are plain strings,
// namespace prefixes (tsl:, ns3:, none...) are dropped, values stay strings.
const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

/** Parses a trusted list; throws an Error saying why when the document is not one. */
export function parseTrustedList(xml: string): TrustedList {
  if (typeof xml !== 'string' || xml.trim() === '') throw new Error('Not a trusted list: the document is empty');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`Not a trusted list: malformed XML (line ${valid.err.line}: ${valid.err.msg})`);
  const doc = parser.parse(xml) as XmlNode;
  const rootName = Object.keys(doc).find((k) => !k.startsWith('?') && !k.startsWith('#'));
  const root = first(doc, 'TrustServiceStatusList');
  if (!root) throw new Error(`Not a trusted list (ETSI TS 119 612): the root element is <${rootName ?? '?'}>, not <TrustServiceStatusList>`);
  const scheme = first(root, 'SchemeInformation');
  if (!scheme) throw new Error('Not a trusted list (ETSI TS 119 612): no SchemeInformation');

  const authorities: TrustedAuthority[] = [];
  for (const provider of path(root, 'TrustServiceProviderList', 'TrustServiceProvider')) {
    const providerName = pickName(path(provider, 'TSPInformation', 'TSPName', 'Name'));
    for (const service of path(provider, 'TSPServices', 'TSPService')) {
      const info = first(service, 'ServiceInformation');
      if (!info || !isTrustedCa(info)) continue;
      const certificates = unique(
        path(info, 'ServiceDigitalIdentity', 'DigitalId', 'X509Certificate')
          .map((c) => textOf(c).replace(/\s+/g, ''))
          .filter(isDerBase64),
      );
      if (certificates.length === 0) continue;
      authorities.push({ provider: providerName, service: pickName(path(info, 'ServiceName', 'Name')), certificates });
    }
  }

  const sequence = textOf(first(scheme, 'TSLSequenceNumber')).trim();
  return {
    territory: textOf(first(scheme, 'SchemeTerritory')).trim() || null,
    sequenceNumber: /^\d+$/.test(sequence) ? Number(sequence) : null,
    issuedAt: isoOrNull(textOf(first(scheme, 'ListIssueDateTime'))),
    nextUpdate: isoOrNull(textOf(path(scheme, 'NextUpdate', 'dateTime')[0])),
    authorities,
  };
}

/** Every certificate of the list's authorities once (a CA may be listed by more than one service). */
export function trustedCertificates(list: Pick<TrustedList, 'authorities'>): string[] {
  return unique(list.authorities.flatMap((a) => a.certificates));
}

function isTrustedCa(info: XmlNode): boolean {
  if (textOf(first(info, 'ServiceTypeIdentifier')).trim() !== TL_SERVICE_TYPE_CA_QC) return false;
  if (textOf(first(info, 'ServiceStatus')).trim() !== TL_STATUS_GRANTED) return false;
  const additional = path(info, 'ServiceInformationExtensions', 'Extension', 'AdditionalServiceInformation', 'URI').map((u) => textOf(u).trim());
  const websiteOnly = additional.includes(TL_FOR_WEBSITE_AUTHENTICATION) && !additional.includes(TL_FOR_ESIGNATURES) && !additional.includes(TL_FOR_ESEALS);
  return !websiteOnly;
}

/** The element `name` of every node, flattened (each element is an array: see the parser). */
function children(nodes: readonly unknown[], name: string): unknown[] {
  return nodes.flatMap((n) => (isNode(n) && Array.isArray(n[name]) ? (n[name] as unknown[]) : []));
}

/** The elements at `names` below `node`, along every branch. */
function path(node: unknown, ...names: string[]): unknown[] {
  return names.reduce<unknown[]>((nodes, name) => children(nodes, name), node === undefined ? [] : [node]);
}

function first(node: unknown, name: string): XmlNode | undefined {
  const found = path(node, name)[0];
  return isNode(found) ? found : typeof found === 'string' ? { '#text': found } : undefined;
}

const isNode = (v: unknown): v is XmlNode => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of an element: a string, or the `#text` of an element with attributes. */
function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (isNode(v) && typeof v['#text'] === 'string') return v['#text'];
  return '';
}

/** The Italian name, else the English one, else the first; whitespace collapsed, character references decoded. */
function pickName(names: readonly unknown[]): string {
  const langOf = (n: unknown) => (isNode(n) && typeof n['@lang'] === 'string' ? n['@lang'].toLowerCase() : '');
  const chosen = names.find((n) => langOf(n) === 'it') ?? names.find((n) => langOf(n) === 'en') ?? names[0];
  return decodeCharRefs(textOf(chosen)).replace(/\s+/g, ' ').trim();
}

// the XML parser decodes the five named entities; numeric references are left to us
function decodeCharRefs(s: string): string {
  return s.replace(/&#(x[0-9a-f]+|\d+);/gi, (ref, code: string) => {
    const n = code[0] === 'x' || code[0] === 'X' ? parseInt(code.slice(1), 16) : parseInt(code, 10);
    return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : ref;
  });
}

/** Base64 of a DER SEQUENCE (what a certificate is), whitespace already removed. */
function isDerBase64(b64: string): boolean {
  if (b64.length < 8 || b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return false;
  return atob(b64.slice(0, 4)).charCodeAt(0) === 0x30;
}

function isoOrNull(s: string): string | null {
  const t = s.trim();
  if (!t) return null;
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
