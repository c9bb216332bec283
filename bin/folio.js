#!/usr/bin/env node
// The CLI is compiled from build/cli.ts into lib/ by `npm ci` (the prepare script).
import('../lib/cli.js').catch((error) => {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('lib/cli.js')) {
    console.error('folio: lib/cli.js is missing. Run `npm run compile` (or `npm ci`) first.');
    process.exit(2);
  }
  throw error;
});
