// Everything else the middleware did not answer from a file: any limit and
// offset, errors in the envelope, 405 and preflights, and the 404 page in the
// variant Accept asks for (D8, D15-D17, D23). Never index.html.
import { answer } from './_shared/folio.js';

export const onRequest = answer;
