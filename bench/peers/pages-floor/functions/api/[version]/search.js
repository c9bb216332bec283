export const onRequest = () => new Response('{"data":[]}', { headers: { 'content-type': 'application/json' } });
