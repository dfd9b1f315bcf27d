/**
 * Windows-1252 to string, the encoding of OMI files that are not UTF-8.
 *
 * Why not iconv-lite here: it bundles every codec it knows (~480 KB of tables, CJK included)
 * into the import Lambda, which needs one single-byte table; Node's
 * `TextDecoder('windows-1252')` is not usable either (some Node versions decode it as plain
 * Latin-1, losing €, ’, “ ...). Windows-1252 is Latin-1 except 0x80-0x9F, listed below (the
 * five bytes it leaves undefined become U+FFFD, as with iconv-lite);
 * test/unit/omi-parser.test.ts checks all 256 bytes against iconv-lite.
 */
const HIGH = [
  0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0xfffd, 0x017d, 0xfffd,
  0xfffd, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178,
];

export function decodeWin1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4096) {
    const codes = Array.from(bytes.subarray(i, i + 4096), (b) => (b >= 0x80 && b <= 0x9f ? HIGH[b - 0x80]! : b));
    out += String.fromCharCode(...codes);
  }
  return out;
}
