/**
 * The trusted list parser (functions/domain/trusted-list.ts) on a synthetic list in the ETSI
 * TS 119 612 structure (test/fixtures/trusted-list/tsl-it.xml, see its README): only the
 * granted CA/QC service's two certificates are trust anchors; the withdrawn CA, the time
 * stamping service, the website-only CA, the service history and the list's own signature
 * certificate are not. Namespace prefixes and single vs repeated elements do not matter;
 * what is not a trusted list throws.
 */
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseTrustedList, trustedCertificates } from '../../functions/domain/trusted-list';
import { fixtureCert as certOf, TSL_FIXTURE as FIXTURE } from '../support/trusted-list';

describe('parseTrustedList', () => {
  it('keeps the certificates of granted qualified CAs only, with the list\'s scheme information', () => {
    const list = parseTrustedList(FIXTURE);
    expect(list).toEqual({
      territory: 'IT',
      sequenceNumber: 42,
      issuedAt: '2026-11-02T09:00:00.000Z',
      nextUpdate: '2027-05-02T09:00:00.000Z',
      authorities: [
        {
          // Italian name preferred over the English one listed first
          provider: 'Fornitore Qualificato di Prova S.p.A.',
          service: 'Fixture Qualified CA for signatures',
          // the second one wrapped over lines in the XML
          certificates: [certOf('ca-qc-1'), certOf('ca-qc-2')],
        },
      ],
    });
    const kept = trustedCertificates(list);
    expect(kept).toHaveLength(2);
    for (const other of ['withdrawn', 'tsa', 'wsa', 'scheme operator'] as const) expect(kept).not.toContain(certOf(other));
    // real DER certificates
    for (const b64 of kept) expect(new X509Certificate(Buffer.from(b64, 'base64')).issuer).toContain('O=Fixture Trusted List');
  });

  it('reads any namespace prefix, or none', () => {
    const expected = parseTrustedList(FIXTURE);
    const renamed = FIXTURE.replaceAll('tsl:', 'ns2:').replaceAll('ns3:', 'tie:');
    expect(renamed).toContain('<ns2:TrustServiceStatusList');
    expect(parseTrustedList(renamed)).toEqual(expected);
    // the default namespace, no prefix at all on the list's elements
    const unprefixed = FIXTURE.replace('xmlns:tsl=', 'xmlns=').replaceAll('<tsl:', '<').replaceAll('</tsl:', '</');
    expect(unprefixed).toContain('<TrustServiceStatusList xmlns="http://uri.etsi.org/02231/v2#"');
    expect(parseTrustedList(unprefixed)).toEqual(expected);
  });

  it('reads single and repeated elements alike, names in any language', () => {
    const one = (cert: string, lang = 'en') => `<TrustServiceStatusList xmlns="http://uri.etsi.org/02231/v2#">
  <SchemeInformation><TSLSequenceNumber>7</TSLSequenceNumber><SchemeTerritory>IT</SchemeTerritory></SchemeInformation>
  <TrustServiceProviderList><TrustServiceProvider>
    <TSPInformation><TSPName><Name xml:lang="${lang}">Solo &amp; Unico S.r.l. &#8211; prova</Name></TSPName></TSPInformation>
    <TSPServices><TSPService><ServiceInformation>
      <ServiceTypeIdentifier>http://uri.etsi.org/TrstSvc/Svctype/CA/QC</ServiceTypeIdentifier>
      <ServiceName><Name xml:lang="de">Einzige CA</Name><Name xml:lang="fr">CA unique</Name></ServiceName>
      <ServiceDigitalIdentity><DigitalId><X509Certificate>${cert}</X509Certificate></DigitalId></ServiceDigitalIdentity>
      <ServiceStatus>http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted</ServiceStatus>
    </ServiceInformation></TSPService></TSPServices>
  </TrustServiceProvider></TrustServiceProviderList>
</TrustServiceStatusList>`;
    expect(parseTrustedList(one(certOf('ca-qc-1'), 'de'))).toEqual({
      territory: 'IT',
      sequenceNumber: 7,
      issuedAt: null,
      nextUpdate: null,
      // neither Italian nor English: the first name
      authorities: [{ provider: 'Solo & Unico S.r.l. – prova', service: 'Einzige CA', certificates: [certOf('ca-qc-1')] }],
    });
    // something that is not a DER certificate is not an anchor
    expect(parseTrustedList(one('bm90IGEgY2VydGlmaWNhdGU=')).authorities).toEqual([]);
  });

  it('does not take the old statuses of Directive 1999/93 as current', () => {
    for (const status of ['http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/undersupervision', 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/accredited']) {
      const xml = FIXTURE.replace(
        '<tsl:ServiceStatus>http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted</tsl:ServiceStatus>\n            <tsl:StatusStartingTime>2016-06-30T22:00:00Z</tsl:StatusStartingTime>\n            <tsl:ServiceInformationExtensions>',
        `<tsl:ServiceStatus>${status}</tsl:ServiceStatus>\n            <tsl:StatusStartingTime>2016-06-30T22:00:00Z</tsl:StatusStartingTime>\n            <tsl:ServiceInformationExtensions>`,
      );
      expect(xml).not.toBe(FIXTURE);
      expect(parseTrustedList(xml).authorities).toEqual([]);
    }
  });

  it('a list without providers parses to no authorities', () => {
    const empty = FIXTURE.replace(/<tsl:TrustServiceProviderList>[\s\S]*<\/tsl:TrustServiceProviderList>/, '');
    expect(parseTrustedList(empty)).toMatchObject({ territory: 'IT', sequenceNumber: 42, authorities: [] });
  });

  it('throws on what is not a trusted list', () => {
    expect(() => parseTrustedList('<?xml version="1.0"?><rss version="2.0"><channel><title>Notizie</title></channel></rss>')).toThrow(
      /Not a trusted list \(ETSI TS 119 612\): the root element is <rss>/,
    );
    expect(() => parseTrustedList('<html><body>Servizio non disponibile</body></html>')).toThrow(/root element is <html>/);
    expect(() => parseTrustedList('<TrustServiceStatusList><Other/></TrustServiceStatusList>')).toThrow(/no SchemeInformation/);
    expect(() => parseTrustedList('{"error":"not found"}')).toThrow(/Not a trusted list/);
    expect(() => parseTrustedList(FIXTURE.slice(0, FIXTURE.length / 2))).toThrow(/malformed XML/);
    expect(() => parseTrustedList('')).toThrow(/empty/);
  });
});
