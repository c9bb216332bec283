export const onRequest = () => new Response('# A page\n', { headers: { 'content-type': 'text/markdown; charset=utf-8' } });
