/**
 * Evaluates an S3 browser-POST policy document the way S3 does (expiration, `eq` /
 * exact-match conditions, `starts-with`, `content-length-range`), for a form's fields
 * and the uploaded file's size. S3 itself enforces this on AWS; the local emulator
 * (s3rver 3.7) ignores the policy field, so tests (and, if wired, the local runtime)
 * use this to check the policy our presigned POSTs carry.
 */
export type PolicyVerdict = { ok: true } | { ok: false; reason: string };

type Condition = Record<string, string> | [string, string | number, string | number];

const IGNORED_FIELDS = new Set(['file', 'policy', 'x-amz-signature']);

export function decodePolicy(base64: string): { expiration: string; conditions: Condition[] } {
  return JSON.parse(Buffer.from(base64, 'base64').toString('utf8')) as { expiration: string; conditions: Condition[] };
}

export function evaluatePostPolicy(
  policy: { expiration: string; conditions: Condition[] },
  fields: Record<string, string>,
  fileSize: number,
  now: Date = new Date(),
): PolicyVerdict {
  if (new Date(policy.expiration).getTime() <= now.getTime()) return { ok: false, reason: 'Policy expired' };
  const form = new Map(Object.entries(fields).map(([k, v]) => [k.toLowerCase(), v]));
  const covered = new Set<string>(['bucket']);
  for (const c of policy.conditions) {
    if (Array.isArray(c)) {
      const [op, a, b] = c;
      if (op === 'content-length-range') {
        if (fileSize < Number(a) || fileSize > Number(b)) return { ok: false, reason: `EntityTooLarge/Small: ${fileSize} not in ${a}..${b}` };
        continue;
      }
      const name = String(a).replace(/^\$/, '').toLowerCase();
      covered.add(name);
      const value = form.get(name) ?? '';
      if (op === 'eq' && value !== String(b)) return { ok: false, reason: `${name} must equal ${b}` };
      if (op === 'starts-with' && !value.startsWith(String(b))) return { ok: false, reason: `${name} must start with ${b}` };
    } else {
      for (const [k, v] of Object.entries(c)) {
        const name = k.toLowerCase();
        covered.add(name);
        if (name === 'bucket') continue;
        if ((form.get(name) ?? '') !== v) return { ok: false, reason: `${name} must equal ${v}` };
      }
    }
  }
  // Every form field (except the file, the policy and the signature) must be covered by a condition.
  for (const name of form.keys()) {
    if (IGNORED_FIELDS.has(name) || name.startsWith('x-ignore-')) continue;
    if (!covered.has(name)) return { ok: false, reason: `Field ${name} not covered by the policy` };
  }
  return { ok: true };
}
