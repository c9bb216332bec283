// The starter site `folio init` writes (D42): the smallest content that
// builds, in which every placeholder says what to put there instead. Pure:
// the date in, files out. It names nobody: the consultant is "Your Name".

export interface StarterFile {
  /** Relative to the directory initialised. */
  path: string;
  body: string;
}

const siteYaml = `# The site as a whole. Replace every value below; docs/authoring.md explains each field.
# Replace with your name and what you do; it is the browser tab and feed title.
title: "Your Name — what you help clients with"
# Replace with one sentence on who you help and how; search engines and agents show it.
description: "Replace this with one sentence: who you help, with what, and where."
# Replace with the address the site will live at (no trailing slash).
site_url: https://example.com
# The language of your writing (BCP 47: en, de, nl, fr, …).
language: en
# What the site says about itself (optional; leave one out and the site says
# nothing of the kind). Uncomment and replace with your own words.
# writing: notes from my consulting work          # completes "The posts are …"
# disclaimer: Nothing here is professional advice for your situation.
# is_not:
#   - It is not a support channel for the tools the posts discuss.
# fair_use:
#   requests_per_minute: 60
# Your colours and type (optional). Accents must read on the page background
# (WCAG AA, 4.5:1); folio checks both and suggests a colour if one does not.
# theme:
#   accent: "#1a7f37"
#   accent_dark: "#5fd38a"
#   font: sans          # sans, serif or mono
`;

const profile = `---
# Replace every value with your own; the body below is your biography.
name: "Your Name"
headline: "Replace with one line on what you do, e.g. Independent data engineer for small teams"
location: "Replace with your city and time zone, e.g. Lisbon, Portugal (WET)"
expertise:
  - "Replace with an area you know well"
  - "Replace with another; add or remove lines"
availability:
  # available, limited or unavailable, and a note on when you can start.
  status: available
  note: "Replace with when you can take new work, e.g. From March, two days a week"
contact:
  # Replace with the address clients should write to; add url, calendar or others.
  email: you@example.com
# The placeholder in content/static/photo.svg: replace the file with your photo
# (e.g. content/static/photo.jpg, then photo: /photo.jpg) and describe it below.
photo: /photo.svg
photo_alt: "Placeholder: replace with a short description of your photo, e.g. Your Name smiling, outdoors"
---

Replace this paragraph with your biography: what you did before, what you do now, and what a client gets when they work with you. Write it in the first person; it is the body of the [about page](/about).
`;

const service = `---
# One file per consulting service; the file name is its address (/services/your-first-service).
# Replace the title, the summary and the list of engagements it fits.
title: "Replace with the name of a service you offer"
summary: "Replace with one sentence on the problem this service solves."
best_fit:
  - "Replace with a situation this service fits"
  - "Replace with another; add or remove lines"
order: 1
---

Replace this paragraph with how you work on this kind of problem: what you look at first, what the client gets at the end, and how long it usually takes. Rename the file to the address you want, e.g. \`services/data-pipeline-review.md\`.
`;

const post = (date: string) => `---
# One file per post; the file name is its address (/blog/first-post).
# Replace the title and tags, and keep the date as the day you publish.
title: "Replace with the title of your first post"
date: ${date}
tags:
  - replace-me
---

Replace this paragraph with the first paragraph of a post: the summary lists show comes from it unless you set \`summary\`. Posts are experience reports in Markdown, with tables, code blocks and footnotes where they help.

Rename the file when you rename the post, and list the old address under \`aliases\` so that links to it keep working.
`;

const project = (month: string) => `---
# One file per project; the file name is its address (/projects/first-project).
# status is live, delivered or sunset.
title: "Replace with the name of a project"
status: live
summary: "Replace with one sentence on what the project is and who it is for."
started: ${month}
tags:
  - replace-me
---

Replace this paragraph with what the project is, your part in it, and what came of it.
`;

/** A placeholder portrait: a head and shoulders on a plain ground, labelled as a placeholder. */
const photo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400" role="img" aria-labelledby="t">
  <title id="t">Placeholder photo: replace content/static/photo.svg with your own</title>
  <rect width="400" height="400" fill="#e3e7ea"/>
  <circle cx="200" cy="158" r="72" fill="#9aa6b2"/>
  <path d="M64 400c8-86 64-136 136-136s128 50 136 136z" fill="#9aa6b2"/>
  <rect x="96" y="338" width="208" height="36" rx="8" fill="#ffffff" opacity="0.85"/>
  <text x="200" y="362" font-family="system-ui, sans-serif" font-size="18" text-anchor="middle" fill="#1d2126">Replace with your photo</text>
</svg>
`;

// .dist.folio-*: what a build keeps beside dist/ while it runs (its lock, its staging folder).
const gitignore = ['# folio build output and its cache', 'dist/', '.folio-cache/', '.dist.folio-*'];

/** Every file of the starter; `today` (YYYY-MM-DD) dates the first post and project. */
export function starterFiles(today: string): StarterFile[] {
  return [
    { path: 'content/site.yaml', body: siteYaml },
    { path: 'content/profile.md', body: profile },
    { path: 'content/services/your-first-service.md', body: service },
    { path: 'content/posts/first-post.md', body: post(today) },
    { path: 'content/projects/first-project.md', body: project(today.slice(0, 7)) },
    { path: 'content/static/photo.svg', body: photo },
  ];
}

/** The lines of the starter .gitignore; an existing file gets only those it lacks. */
export function gitignoreLines(existing: string | null): string[] {
  // `dist`, `/dist` and `/dist/` ignore the folder as `dist/` does.
  const have = new Set((existing ?? '').split(/\r?\n/).map((l) => l.trim().replace(/^\//, '').replace(/\/$/, '')));
  const missing = gitignore.slice(1).filter((line) => !have.has(line.replace(/\/$/, '')));
  return missing.length ? [gitignore[0]!, ...missing] : [];
}
