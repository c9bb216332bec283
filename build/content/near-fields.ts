// Fields folio does not read pass through to the API as they are (D2). One a
// letter or two from a field it reads is most likely a typo, and a silent
// one: `drafts: true` publishes the post it was meant to hold back.
import { POST_FIELDS, PROFILE_FIELDS, PROJECT_FIELDS, SERVICE_FIELDS } from './kinds.js';
import { nearField } from './problems.js';

const KNOWN = { post: POST_FIELDS, project: PROJECT_FIELDS, service: SERVICE_FIELDS, profile: PROFILE_FIELDS } as const;

export interface ExtraFields {
  kind: keyof typeof KNOWN;
  file: string;
  extra: Record<string, unknown>;
}

/** A warning for each passed-through field near one of its kind's own, naming the file, the field and the fix. */
export function nearFieldWarnings(files: Iterable<ExtraFields>): string[] {
  const warnings: string[] = [];
  for (const { kind, file, extra } of files) {
    for (const key of Object.keys(extra)) {
      const near = nearField(key, KNOWN[kind]);
      if (near)
        warnings.push(
          `${file}: \`${key}\` is not a field of a ${kind}, so folio publishes it as it is in the API and reads nothing from it. Did you mean \`${near}\`? Rename it, or keep it if it is a field of your own.`,
        );
    }
  }
  return warnings;
}
