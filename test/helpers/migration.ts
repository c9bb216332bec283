// Shared by the tests of a blog moved from Hugo or Jekyll (D2): the build
// clock, a working folder with fresh copies of the sample content, and the
// warning lines of what the CLI printed.
import { workspace, type Workspace } from './workspace.js';

/** The build clock of the broken sample the migration tests build beside their own sites. */
export { BUILD_CLOCK as NOW } from './broken.js';

export const SLOW = { timeout: 120_000 };

/** The file's working folder (the CLI's cwd) and fresh copies of the sample; call once at a file's top level. */
export const migrationWorkspace = (): Workspace => workspace('folio-migration-cwd-');

export const warningsOf = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('folio: warning: '));
