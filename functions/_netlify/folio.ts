// The Netlify Function (v2) behind folio's rewrites in dist/netlify.toml:
// `netlify deploy --dir dist --functions functions/_netlify`. The rewrites
// send what the CDN cannot answer from a file to /_folio/netlify/<path>.
import { originHandler } from '../_shared/origin.js';

// Its own reads of dist/ files go through /_folio/file/, which dist/netlify.toml serves as the files themselves.
export default originHandler({ prefix: '/_folio/netlify', files: '/_folio/file' });

export const config = { path: '/_folio/netlify/*' };
