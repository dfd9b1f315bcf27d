/**
 * Wizard uploads are drafts until a submission links them. The presigned POST makes every
 * object with the DRAFT_TAG (the policy requires exactly that `tagging` field), the media
 * bucket's lifecycle rule (infra/stacks/data-stack.ts) expires tagged objects after
 * DRAFT_EXPIRY_DAYS, and the submission copies each draft it links under a key no form names,
 * without the tag (media-storage.ts `copyWithoutTags`), before its transaction; the drafts
 * themselves are deleted after it, or left to expire. S3 expires an object at the first
 * midnight UTC at least DRAFT_EXPIRY_DAYS after it was made, so a draft younger than
 * DRAFT_LINKABLE_HOURS can never be expiring while it is copied: an older one is refused
 * (upload it again).
 * Pure constants: the CDK stacks import them too.
 */
export const DRAFT_TAG = { key: 'draft', value: 'true' } as const;

export const DRAFT_EXPIRY_DAYS = 1;

/** a draft older than this is not linked (an hour of margin on the 24 h lifetime) */
export const DRAFT_LINKABLE_HOURS = 23;

/** The `tagging` field of the presigned POST: S3's XML tag set. */
export function draftTagging(): string {
  return `<Tagging><TagSet><Tag><Key>${DRAFT_TAG.key}</Key><Value>${DRAFT_TAG.value}</Value></Tag></TagSet></Tagging>`;
}
