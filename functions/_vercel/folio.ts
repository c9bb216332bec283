// The Vercel Edge Function behind the routes of dist/vercel.json, re-exported
// by api/folio.ts (Vercel finds functions only in api/). The routes pass the
// original path in the __folio_path query parameter.
import { originHandler } from '../_shared/origin.js';

export default originHandler({ param: '__folio_path' });
