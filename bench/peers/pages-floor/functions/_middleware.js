// Pages' router with nothing of folio's behind it (bench/edge.js): the same
// four route files as functions/, each answering at once, so that what the
// router and a request's plumbing cost on a cold start is seen apart from
// folio's own code. The middleware passes every request on.
export const onRequest = (context) => context.next();
