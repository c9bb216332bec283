// Content fuzzing (D2), in process: random corruptions of a small valid site
// (test/helpers/corruptions.ts) go through buildSite, which never throws
// anything but its ContentError, reports each problem as path:line:column
// with a hint, and still builds the changes it must accept; then the inputs
// the fuzzer found, as regressions. content-fuzz-cli.test.ts runs the same
// corruptions through the CLI. FOLIO_FUZZ_SEED replays a failing seed.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContentError, formatProblem, type Problem } from '../build/content/problems.js';
import { buildSite } from '../build/site.js';
import { YAML_BOMB } from './helpers/corruption-values.js';
import { applyOrder, corruptionArb, standing } from './helpers/corruptions.js';
import { failureReport, fuzzBudget, fuzzRuns, fuzzSeed, recordFigures } from './helpers/fuzz.js';
import { baseTree, NOW, POSTS, problemViolations, sourcesOf, text, type Tree } from './helpers/fuzz-site.js';

let base: Tree;

beforeAll(async () => {
  base = await baseTree();
});

describe('random corruptions of valid content (in process)', () => {
  it('the base site builds', () => {
    expect(buildSite(sourcesOf(base, 'fz'), { now: NOW }).posts.length).toBe(POSTS.length);
  });

  it(
    'every corruption is reported as path:line:column with a hint, and allowed changes still build',
    { timeout: fuzzBudget(60_000) },
    () => {
      const seed = fuzzSeed();
      let inputs = 0;
      let failures = 0;
      const started = performance.now();
      const details = fc.check(
        // Each change once: the same edit twice is another change (a key written twice is invalid YAML).
        fc.property(
          fc.uniqueArray(corruptionArb(Object.keys(base)), { minLength: 1, maxLength: 3, selector: (c) => c.name }),
          (corruptions) => {
            inputs++;
            const tree: Tree = { ...base };
            for (const c of applyOrder(corruptions)) c.apply(tree);
            const expectError = standing(corruptions, base).some((c) => c.error);
            let problems: Problem[] = [];
            try {
              buildSite(sourcesOf(tree, 'fz'), { now: NOW });
            } catch (error) {
              if (!(error instanceof ContentError)) {
                failures++;
                throw new Error(
                  `${corruptions.map((c) => c.name).join(' + ')}: the build threw ${(error as Error).name}: ${(error as Error).message.slice(0, 200)}`,
                  { cause: error },
                );
              }
              problems = error.problems;
            }
            const bad = problemViolations(problems, tree, 'fz');
            if (expectError && problems.length === 0) bad.push('the build succeeded');
            if (!expectError && problems.length) bad.push(`an allowed change failed: ${problems.map((p) => p.message).join(' | ')}`);
            // Each corrupted file is named, unless another file's problem stopped the build before the cross-file checks.
            const named = (file: string) => problems.some((p) => p.file === `fz/${file}` || p.message.includes(`fz/${file}`));
            const perFile = problems.some((p) => !/points at a page that does not exist/.test(p.message));
            for (const c of standing(corruptions, base)) {
              if (!c.error || named(c.file)) continue;
              const crossFile = /^a link to |^a copy of |^the alias /.test(c.name);
              if (crossFile && perFile) continue;
              bad.push(`${c.name}: no problem names ${c.file}`);
            }
            if (bad.length) {
              failures++;
              throw new Error(
                `${corruptions.map((c) => c.name).join(' + ')}:\n  ${bad.join('\n  ')}\n${problems.map(formatProblem).join('\n')}`,
              );
            }
          },
        ),
        { numRuns: fuzzRuns(150), seed, interruptAfterTimeLimit: fuzzBudget(10_000), markInterruptAsFailure: false },
      );
      recordFigures({
        name: 'content: corruptions (in process)',
        target: 'buildSite over a 10-file site',
        inputs,
        requests: 0,
        failures,
        seed,
        ms: Math.round(performance.now() - started),
      });
      expect(details.failed, failureReport(details)).toBe(false);
      expect(inputs).toBeGreaterThan(20);
    },
  );
});

describe('inputs the fuzzer found (regressions)', () => {
  const build = (tree: Tree) => {
    try {
      buildSite(sourcesOf(tree, 'fz'), { now: NOW });
      return [];
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      return error.problems.map(formatProblem);
    }
  };

  it('site.yaml with a byte that is not UTF-8 is reported at its line and column, like a Markdown file', () => {
    const yaml = Buffer.from(text(base['site.yaml']!));
    const at = yaml.indexOf('Consulting');
    const tree = { ...base, 'site.yaml': Buffer.concat([yaml.subarray(0, at), Buffer.from([0xff]), yaml.subarray(at)]) };
    expect(build(tree)).toEqual([
      expect.stringMatching(
        /^fz\/site\.yaml:1:\d+: This file is not valid UTF-8 text: it has bytes that UTF-8 does not allow, .*\n {2}hint: Save it as UTF-8/,
      ),
    ]);
  });

  it('a post holding the U+FFFD a failed conversion leaves is reported at it, with the character to write back', () => {
    const post = text(base['posts/second-post.md']!);
    const at = post.lastIndexOf('\n', post.length - 2) + 1;
    const tree = { ...base, 'posts/second-post.md': `${post.slice(0, at)}Caf\uFFFD ${post.slice(at)}` };
    const line = post.slice(0, at).split('\n').length;
    expect(build(tree)).toEqual([
      `fz/posts/second-post.md:${line}:4: This file is not valid UTF-8 text: it has bytes that UTF-8 does not allow, or the character � (U+FFFD) that a failed conversion leaves in their place.\n  hint: Save it as UTF-8 (most editors offer "Save with encoding"), and where � stands, write the character it replaced.`,
    ]);
  });

  it('site.yaml with an alias whose anchor is missing is reported at the alias (it threw a ReferenceError)', () => {
    const yaml = `${text(base['site.yaml']!)}\n&anchor x: *nope\n`;
    const line = yaml.split('\n').length - 1;
    expect(build({ ...base, 'site.yaml': yaml })).toEqual([
      expect.stringMatching(
        new RegExp(`^fz/site\\.yaml:${line}:12: This is not valid YAML: Unresolved alias .*nope\\.\\n {2}hint: An alias`),
      ),
    ]);
  });

  it('a YAML bomb (aliases of aliases) in site.yaml or in front-matter is reported, not expanded', () => {
    const yaml = `${text(base['site.yaml']!)}\n${YAML_BOMB}\n`;
    expect(build({ ...base, 'site.yaml': yaml })).toEqual([
      expect.stringMatching(/^fz\/site\.yaml:\d+:\d+: This is not valid YAML: Excessive alias count/),
    ]);
    const post = text(base['posts/first-post.md']!).replace('---\n', `---\n${YAML_BOMB}\n`);
    expect(build({ ...base, 'posts/first-post.md': post })).toEqual([
      expect.stringMatching(/^fz\/posts\/first-post\.md:3:\d+: The front-matter is not valid YAML: Excessive alias count/),
    ]);
  });

  it('an unresolved alias in front-matter is reported at its line, not 1:1', () => {
    const post = text(base['posts/first-post.md']!).replace('summary: One sentence on what happened.', 'summary: *nope');
    const line = post.split('\n').findIndex((l) => l.includes('*nope')) + 1;
    expect(build({ ...base, 'posts/first-post.md': post })).toEqual([
      expect.stringMatching(new RegExp(`^fz/posts/first-post\\.md:${line}:10: The front-matter is not valid YAML: Unresolved alias`)),
    ]);
  });

  it('site.yaml holding a NUL byte is reported as binary', () => {
    expect(build({ ...base, 'site.yaml': `${text(base['site.yaml']!)}\u0000` })).toEqual([
      expect.stringMatching(/^fz\/site\.yaml:1:1: This file holds binary data \(a NUL byte\), not YAML text\./),
    ]);
  });

  it.each(['> ', '- ', '1. ', '> - ', '* '])(
    'a body nesting "%s" 20,000 deep is reported at its line (it overflowed the parser\'s stack)',
    (unit) => {
      const file = 'posts/first-post.md';
      const original = text(base[file]!);
      const problems = build({ ...base, [file]: `${original}\n${unit.repeat(20_000)}deep\n` });
      expect(problems).toEqual([
        expect.stringMatching(
          new RegExp(
            `^fz/posts/first-post\\.md:${original.split('\n').length + 1}:1: This line nests more than 100 block quotes or list items`,
          ),
        ),
      ]);
    },
  );

  it.each(['profile.md', 'projects/relay.md', 'posts/second-post.md', 'services/audit.md', 'site.yaml'])(
    '%s saved with CRLF line endings (and a BOM) builds the same site',
    (file) => {
      const crlf = { ...base, [file]: `\uFEFF${text(base[file]!).replace(/\n/g, '\r\n')}` };
      expect(build(crlf)).toEqual([]);
      const a = buildSite(sourcesOf(base, 'fz'), { now: NOW });
      const b = buildSite(sourcesOf(crlf, 'fz'), { now: NOW });
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    },
  );

  it('a CRLF file with a problem reports the same line and column as with LF', () => {
    const file = 'posts/third-post.md';
    const broken = text(base[file]!).replace('date: 2025-03-12', 'date: someday');
    const lf = build({ ...base, [file]: broken });
    expect(lf).toEqual([expect.stringMatching(/^fz\/posts\/third-post\.md:3:1: `date` is not a date/)]);
    expect(build({ ...base, [file]: broken.replace(/\n/g, '\r\n') })).toEqual(lf);
  });

  it('nesting 100 deep is still rendered', () => {
    const file = 'posts/first-post.md';
    expect(build({ ...base, [file]: `${text(base[file]!)}\n${'> '.repeat(100)}deep\n` })).toEqual([]);
  });
});
