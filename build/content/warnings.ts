// What the build says of the content but does not refuse, file by file: what
// each record noted as it was read, at its line. A passed-through field (D2)
// a letter or two from one folio reads (Fields.warnNearFields), a tag that
// loses more than case, accents and punctuation to its slug (D9), and raw
// HTML the pages leave out (D24).
import { formatProblem } from './problems.js';
import type { DocumentRecord } from './kinds.js';

/** The warnings of these records, each naming the file and the line, what is wrong and the fix. */
export function contentWarnings(records: Iterable<DocumentRecord | null>): string[] {
  const warnings: string[] = [];
  for (const record of records) for (const warning of record?.read?.warnings ?? []) warnings.push(formatProblem(warning));
  return warnings;
}
