// What the content fuzzer writes into the fuzz site (corruptions.ts): the
// required fields of each kind of file, wrong values for its fields, and
// lines that are not valid YAML.

export const REQUIRED: Record<string, string[]> = {
  post: ['title', 'date'],
  project: ['title', 'status'],
  service: ['title', 'summary', 'best_fit'],
  profile: ['name', 'headline', 'location', 'expertise', 'availability', 'contact'],
  site: ['title', 'description', 'site_url', 'language'],
};

export const WRONG: Record<string, [string, string[]][]> = {
  post: [
    ['title', ['[a, b]', '{x: 1}', '""', '"   "']],
    ['date', ['yesterday', '2026-13-45', '12345', '[2026]', '2026/01/01', '2026-02-30', '"2026-1-1"']],
    ['tags', ['{a: 1}', '[[nested]]', '[{a: b}]', '["!!!"]', '[a: b]']],
    ['draft', ['"yes"', '1', '[true]']],
    ['updated', ['not-a-date', '2020-01-01', '{a: 1}']],
    ['slug', ['Not A Slug!', '[x]', '"../etc/passwd"', '"-leading"', 'UPPER']],
    ['summary', ['{a: b}', '[1, 2]']],
    ['aliases', ['old-slug', '"/a b"', '{a: 1}', '["/x?y=1"]', '[/api/v1/posts/x]', '[/x.md]', '[[/nested]]', '["/blog/:slug"]']],
  ],
  project: [
    ['status', ['paused', 'Live', '[live]', '{a: 1}', '""', 'lvie']],
    ['url', ['not a url', 'ftp://x', 'javascript:alert(1)', '[a]']],
    ['started', ['someday', '2024-13', '{a: 1}']],
    ['ended', ['2010-01', 'never']],
    ['id', ['Bad Id', '"a/b"', '[x]']],
    ['title', ['[a]', '{}']],
    ['aliases', ['relay-old', '["/blog/*"]']],
  ],
  service: [
    ['order', ['1.5', 'first', '[1]', '{a: 1}']],
    ['best_fit', ['{a: 1}', '[{a: b}]', '[[x]]']],
    ['summary', ['[1]', '{a: b}']],
    ['aliases', ['["//evil.example"]', '[/a/../b]']],
    ['id', ['Bad Id', '[x]']],
  ],
  profile: [
    ['availability', ['open', '{note: x}', '[1]', '{status: ""}']],
    ['contact', ['{email: nope}', '[]', 'hello@example.com', '{url: https://x}']],
    ['expertise', ['{a: 1}', '[{a: b}]']],
    ['name', ['[a]', '{a: 1}']],
    ['photo', ['[a]', '{a: 1}', 'https://example.com/me.png', './me.png']],
    ['photo_alt', ['"   "', '[a]', 'no photo for this alt']],
  ],
  site: [
    ['site_url', ['ftp://x', 'https://x/', 'not a url', '[a]', '""', 'https://exa mple.com']],
    ['title', ['[a]', '{a: 1}']],
    [
      'theme',
      [
        '{accent: "#ffff00"}',
        '{accent: teal}',
        '{accent_dark: "#222222"}',
        '{font: comic}',
        '{accnet: "#000000"}',
        '[1]',
        '"#000"',
        '{accent: "#12345"}',
        '{accent: 255}',
      ],
    ],
    [
      'api',
      [
        '{versions: {v1: {deprecated: 2027-01-01, sunset: 2027-02-01}}}',
        '{versions: []}',
        '{versions: {v1: {sunset: 2027-02-01}}}',
        '{versions: {v1: {deprecated: someday}}}',
        '[1]',
      ],
    ],
  ],
};

/** DUPLICATE: the first top-level line again (a duplicate key). */
export const YAML_BOMB =
  'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]';
export const BAD_YAML = [
  'DUPLICATE',
  YAML_BOMB,
  'title: "unclosed',
  'tags: [a, b',
  'bad: value: other',
  '\tindented: with a tab',
  '- a list item at the top',
  'key: {a: 1',
  '&anchor x: *nope',
  'x: @reserved',
  '{ a',
  'x: "\\q"',
];

/** The kind of file a content path holds, as REQUIRED and WRONG name it. */
export function kindOf(path: string): string {
  if (path === 'site.yaml') return 'site';
  if (path === 'profile.md') return 'profile';
  return path.split('/')[0]!.replace(/s$/, '');
}
