import { describe, expect, it } from 'vitest';
import { rateLimitNetwork } from '../../functions/model/rate-limit';

/**
 * Whom the per-IP limits count: one IPv4 address, but a whole IPv6 /64 (one subscriber line
 * gets at least a /64 and can pick any of its 2^64 addresses, so counting addresses would
 * give every request a fresh counter).
 */
describe('rate limit network of a client address', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(rateLimitNetwork('93.41.2.7')).toBe('93.41.2.7');
    expect(rateLimitNetwork('93.41.2.8')).not.toBe(rateLimitNetwork('93.41.2.7'));
  });

  it('counts every address of an IPv6 /64 as one client', () => {
    const a = rateLimitNetwork('2001:db8:1234:5678:aaaa:bbbb:cccc:dddd');
    expect(a).toBe('2001:db8:1234:5678::/64');
    expect(rateLimitNetwork('2001:db8:1234:5678::1')).toBe(a);
    expect(rateLimitNetwork('2001:0db8:1234:5678:0:0:0:ffff')).toBe(a);
    expect(rateLimitNetwork('2001:DB8:1234:5678:FFFF::')).toBe(a);
  });

  it('keeps different /64 networks apart', () => {
    expect(rateLimitNetwork('2001:db8:1234:5679::1')).toBe('2001:db8:1234:5679::/64');
    expect(rateLimitNetwork('2001:db8:1234:5679::1')).not.toBe(rateLimitNetwork('2001:db8:1234:5678::1'));
  });

  it('expands :: wherever it stands, and embedded IPv4 tails', () => {
    expect(rateLimitNetwork('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(rateLimitNetwork('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('treats an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(rateLimitNetwork('::ffff:93.41.2.7')).toBe('93.41.2.7');
    expect(rateLimitNetwork('::FFFF:93.41.2.7')).toBe('93.41.2.7');
  });

  it('leaves anything that is not an address to its own counter', () => {
    expect(rateLimitNetwork('')).toBe('');
    expect(rateLimitNetwork('not an ip')).toBe('not an ip');
  });
});
