// argv → options → run. Exit codes (D1): 0 success, 1 content or input
// errors, 2 usage errors.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ContentError } from './content/problems.js';
import { build } from './emit/build.js';
import { startServer } from './serve.js';

const VERSION = '0.1.0';

/** The build clock: --now, else SOURCE_DATE_EPOCH, else the current time (D1). */
export function buildClock(now: string | undefined, env: NodeJS.ProcessEnv = process.env): Date {
  if (now !== undefined) return parseNow(now);
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && epoch !== '') {
    if (!/^\d+$/.test(epoch)) throw new InvalidArgumentError(`SOURCE_DATE_EPOCH must be whole seconds since 1970, not "${epoch}".`);
    return new Date(Number(epoch) * 1000);
  }
  return new Date();
}

function parseNow(value: string): Date {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError(`"${value}" is not an ISO-8601 date or time. Use e.g. --now 2026-03-14 or --now 2026-03-14T09:00:00Z.`);
  }
  return date;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError(`"${value}" is not a port number (0–65535).`);
  return n;
}

function formatBytes(n: number): string {
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function program(): Command {
  const cli = new Command('folio')
    .description('Builds a folder of Markdown into a site that people and AI agents can both read.')
    .version(VERSION, '-v, --version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');

  cli
    .command('build')
    .description('Render every GET response the site can know ahead of time into the output directory.')
    .option('--content <dir>', 'content directory', 'content')
    .option('--out <dir>', 'output directory (replaced atomically on success)', 'dist')
    .option('--site-url <url>', "absolute site URL, overriding site.yaml's site_url")
    .option('--now <iso-8601>', 'build clock (default: SOURCE_DATE_EPOCH or the current time)')
    .action(async (opts: { content: string; out: string; siteUrl?: string; now?: string }) => {
      const now = buildClock(opts.now);
      const result = await build({ content: opts.content, out: opts.out, now, siteUrl: opts.siteUrl });
      const { posts, projects, services } = result.site;
      console.log(
        `folio: built ${posts.length} posts, ${projects.length} projects, ${services.length} services → ${opts.out}/ ` +
          `(${result.files} files, ${formatBytes(result.bytes)}, ${Math.round(result.ms)} ms)`,
      );
    });

  cli
    .command('serve')
    .description('Serve a built output directory exactly as a CDN deployment would, functions included.')
    .option('--dir <dir>', 'directory to serve', 'dist')
    .option('--port <n>', 'port (default: $PORT or 8080)', parsePort)
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .action(async (opts: { dir: string; port?: number; host: string }) => {
      const port = opts.port ?? (process.env.PORT ? parsePort(process.env.PORT) : 8080);
      const { url, close } = await startServer({ dir: opts.dir, port, host: opts.host });
      console.log(`folio: serving ${opts.dir}/ at ${url} (Ctrl-C to stop)`);
      const stop = () => void close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });

  return cli;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // InvalidArgumentError is a CommanderError that commander has not printed (thrown from an action).
    if (error instanceof InvalidArgumentError && error.code === 'commander.invalidArgument' && !error.message.startsWith('error:')) {
      console.error(`folio: ${error.message}`);
      return 2;
    }
    if (error instanceof CommanderError) {
      // --help and --version exit through here with code 0; commander has printed the rest.
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    }
    if (error instanceof ContentError) {
      console.error(error.message);
      console.error('folio: the build failed; the previous output was left as it was.');
      return 1;
    }
    const e = error as NodeJS.ErrnoException;
    if (e?.code && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) {
      console.error(`folio: ${e.message}`);
      return 1;
    }
    console.error(`folio: ${e?.message ?? error}`);
    return 1;
  }
}

const code = await main(process.argv.slice(2));
if (code !== 0) process.exitCode = code;
