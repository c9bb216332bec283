// argv → options → run. Exit codes (D1): 0 success, 1 content or input
// errors, 2 usage errors.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { check } from './check.js';
import { ContentError, problemPlace } from './content/problems.js';
import { jsonText } from './core/http.js';
import { plural } from './core/pages/html.js';
import { startDev } from './dev.js';
import { stopOnSignals } from './dev/signals.js';
import { build } from './emit/build.js';
import { defaultCacheDir } from './emit/cache.js';
import { HOSTS, type Host } from './emit/hosts/limits.js';
import { paint, ProgressBar, terminal } from './progress.js';
import { buildSummary } from './summary.js';
import { init, InitRefused } from './init.js';
import { startServer } from './serve.js';
import { printWarning } from './site.js';
import { groupWarnings } from './warning-groups.js';
import { buildClock, collectHosts, contentDir, parseCount, parsePort, parseSiteUrl, portOf } from './cli-options.js';

const VERSION = '0.1.0';

/** How `--timings` names the way the build staged its output (BuildStats.staged). */
const STAGED = { empty: 'in an empty folder', links: 'over links to the previous output', spare: 'in the spare output' } as const;

interface BuildFlags {
  content: string;
  out: string;
  siteUrl?: string;
  now?: string;
  cache: boolean;
  cacheDir?: string;
  workers?: number;
}

/** Thrown by an action to end with an exit code after printing its own message. */
class ExitCode extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

export function program(): Command {
  const cli = new Command('folio')
    .description('Builds a folder of Markdown into a site that people and AI agents can both read.')
    .version(VERSION, '-v, --version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');

  cli
    .command('init')
    .description('Start a new site: write a minimal, valid content/ with placeholders to replace, and a .gitignore, into dir.')
    .argument('[dir]', 'directory to start the site in', '.')
    .action(async (dir: string) => {
      try {
        const { written, next } = await init(dir, new Date().toISOString().slice(0, 10));
        console.log(`folio: started a site in ${dir === '.' ? 'this directory' : `${dir}/`}:`);
        for (const file of written) console.log(`  ${file}`);
        console.log('\nEvery placeholder says what to put there instead. Then, from here:');
        for (const [i, command] of next.entries()) console.log(`  ${i + 1}. ${command}`);
      } catch (error) {
        if (!(error instanceof InitRefused)) throw error;
        console.error(`folio: ${error.message}`);
        console.error('  hint: pick an empty or new directory, e.g. npx folio init my-site, or edit the content that is there.');
        throw new ExitCode(2);
      }
    });

  cli
    .command('build')
    .description('Render every GET response the site can know ahead of time into the output directory.')
    .option('--content <dir>', 'content directory', 'content')
    .option('--out <dir>', 'output directory (replaced atomically on success)', 'dist')
    .option('--site-url <url>', "absolute site URL, overriding site.yaml's site_url", parseSiteUrl)
    .option('--now <iso-8601>', 'build clock (default: SOURCE_DATE_EPOCH or the current time)')
    .option('--cache-dir <dir>', 'cache of rendered content and of the last build (default: .folio-cache beside --out)')
    .option('--no-cache', 'render everything and ask for every response, without reading or writing the cache')
    .option('--workers <n>', 'rendering threads besides the main one (default: one fewer than the cores)', parseCount)
    .option('--timings', 'also print how long each phase took')
    .option(
      '--host <name>',
      `a host you deploy to (${HOSTS.join(', ')}; repeatable or comma-separated): its limits fail the build, the others' only warn`,
      collectHosts,
    )
    .action(async (opts: BuildFlags & { timings?: boolean; host?: Host[] }) => {
      const now = buildClock(opts.now);
      const term = terminal();
      const bar = new ProgressBar(term);
      const warnings = groupWarnings(printWarning);
      try {
        const result = await build({
          content: contentDir(opts.content),
          out: opts.out,
          now,
          siteUrl: opts.siteUrl,
          cache: opts.cache === false ? false : (opts.cacheDir ?? defaultCacheDir(opts.out)),
          workers: opts.workers,
          progress: (phase, done, total) => bar.update(phase, done, total),
          hosts: { deploy: opts.host ?? [] },
          // A warning takes a line of its own, not the end of the progress bar's.
          warn: (message) => {
            bar.clear();
            warnings.warn(message);
          },
        });
        bar.clear();
        warnings.flush();
        console.log(buildSummary(result, opts.out, paint(term.color)));
        if (opts.timings)
          console.log(
            `  ${Object.entries(result.stats.phases)
              .map(([k, v]) => `${k} ${Math.round(v)} ms`)
              .join(' · ')} (staged: ${STAGED[result.stats.staged]})`,
          );
      } finally {
        bar.clear();
        warnings.flush();
      }
    });

  cli
    .command('check')
    .description('Validate the content and every internal link without writing anything (exit 0: clean, 1: problems).')
    .option('--content <dir>', 'content directory', 'content')
    .option('--site-url <url>', "absolute site URL, overriding site.yaml's site_url", parseSiteUrl)
    .option('--now <iso-8601>', 'build clock for drafts, scheduled posts and API versions (default: SOURCE_DATE_EPOCH or the current time)')
    .option('--json', 'print {ok, problems: [{file, line, column, message, hint}], warnings: [text]} as JSON on stdout')
    .option('--cache-dir <dir>', 'read rendered content from this cache (never written by check)')
    .action(async (opts: { content: string; siteUrl?: string; now?: string; json?: boolean; cacheDir?: string }) => {
      // A usage error (a bad --now) is told before the content folder is looked at.
      const now = buildClock(opts.now);
      // With --json every warning is in the report; otherwise each is printed as it is found, a few of each kind.
      const warnings = groupWarnings(printWarning);
      const result = await check(
        { content: contentDir(opts.content), now, siteUrl: opts.siteUrl, cache: opts.cacheDir ?? false },
        opts.json ? undefined : (message) => warnings.warn(message),
      );
      warnings.flush();
      if (opts.json) process.stdout.write(jsonText({ ok: result.ok, problems: result.problems, warnings: result.warnings }));
      else if (result.ok) {
        const c = result.counts;
        console.log(
          `folio: content is valid: ${plural(c.files, 'file')} (${plural(c.posts, 'published post')}, ${plural(c.projects, 'project')}, ${plural(c.services, 'service')}), ${plural(c.links, 'link')} checked.`,
        );
        const { day, drafts, scheduled } = result.held;
        if (drafts || scheduled.length) {
          const later = scheduled.map((p) => `${p.slug} on ${p.date}`).join(', ');
          const held = [drafts ? plural(drafts, 'draft') : '', later ? `${scheduled.length} dated after that day (${later})` : ''];
          console.log(`folio: not published by the build clock (${day}, UTC): ${held.filter(Boolean).join('; ')}.`);
        }
      } else {
        const p = paint(terminal(process.stderr).color);
        for (const problem of result.problems)
          console.error(`${p.bold(problemPlace(problem))}: ${problem.message}\n  ${p.dim('hint:')} ${problem.hint}`);
        console.error(
          p.red(`folio: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} found; nothing was written.`),
        );
        if (result.unchecked) console.error(`folio: ${result.unchecked}`);
      }
      if (!result.ok) throw new ExitCode(1);
    });

  cli
    .command('dev')
    .description('Build, serve and rebuild on every content change; open pages reload when they change.')
    .option('--content <dir>', 'content directory', 'content')
    .option('--out <dir>', 'output directory, updated in place on each change', 'dist')
    .option('--site-url <url>', "absolute site URL, overriding site.yaml's site_url", parseSiteUrl)
    .option('--now <iso-8601>', 'build clock for the whole session (default: SOURCE_DATE_EPOCH or the start time)')
    .option('--port <n>', 'port (default: $PORT or 8080)', parsePort)
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--cache-dir <dir>', 'cache of rendered content (default: .folio-cache beside --out)')
    .option('--no-cache', 'keep the cache in memory only')
    .option('--workers <n>', 'rendering threads besides the main one (default: one fewer than the cores)', parseCount)
    .action(async (opts: BuildFlags & { port?: number; host: string }) => {
      const port = portOf(opts.port);
      const now = buildClock(opts.now);
      const session = await startDev({
        content: contentDir(opts.content),
        out: opts.out,
        now,
        siteUrl: opts.siteUrl,
        cache: opts.cache === false ? false : (opts.cacheDir ?? defaultCacheDir(opts.out)),
        workers: opts.workers,
        port,
        host: opts.host,
        log: (line) => console.log(line),
        color: terminal().color,
      });
      await stopOnSignals(session);
    });

  cli
    .command('serve')
    .description('Serve a built output directory exactly as a CDN deployment would, functions included.')
    .option('--dir <dir>', 'directory to serve', 'dist')
    .option('--port <n>', 'port (default: $PORT or 8080)', parsePort)
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .action(async (opts: { dir: string; port?: number; host: string }) => {
      const port = portOf(opts.port);
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
    if (error instanceof ExitCode) return error.code;
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
