// What the build says of the content but does not refuse, file by file:
// - a passed-through field (D2) a letter or two from one folio reads, most
//   likely a typo, and a silent one: `drafts: true` publishes the post it was
//   meant to hold back;
// - what each record noted as it was read, at its line: a tag that loses
//   more than case, accents and punctuation to its slug (D9), and raw HTML
//   the pages leave out (D24).
import { formatProblem, nearField } from './problems.js';
import { POST_FIELDS, PROFILE_FIELDS, PROJECT_FIELDS, SERVICE_FIELDS, type DocumentKind, type DocumentRecord } from './kinds.js';

const KNOWN: Record<DocumentKind, readonly string[]> = {
  post: POST_FIELDS,
  project: PROJECT_FIELDS,
  service: SERVICE_FIELDS,
  profile: PROFILE_FIELDS,
};

/** The warnings of these records, each naming the file, what is wrong and the fix. */
export function contentWarnings(records: Iterable<DocumentRecord | null>): string[] {
  const warnings: string[] = [];
  for (const record of records) {
    if (!record?.read) continue;
    const extra = (record.read.value as { extra?: Record<string, unknown> }).extra ?? {};
    for (const key of Object.keys(extra)) {
      const near = nearField(key, KNOWN[record.kind]);
      if (near)
        warnings.push(
          `${record.file}: \`${key}\` is not a field of a ${record.kind}, so folio publishes it as it is in the API and reads nothing from it. Did you mean \`${near}\`? Rename it, or keep it if it is a field of your own.`,
        );
    }
    for (const warning of record.read.warnings ?? []) warnings.push(formatProblem(warning));
  }
  return warnings;
}
