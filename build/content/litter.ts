// Files that editors and operating systems leave beside the ones an author
// edits: never content, and never published. Emacs keeps a lock beside a
// file with unsaved changes (`.#post.md`, a symbolic link to nowhere) and an
// auto-save (`#post.md#`); vim a swap file (`.post.md.swp`); many editors a
// backup (`post.md~`); JetBrains IDEs a safe-write copy; macOS, on drives
// without its metadata, an AppleDouble twin (`._post.md`) of binary data.
// Beside them, what a content file's own name says: that it is one, and its slug.

const OS_FILES = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

/** Whether a file name (not a path) is such litter. */
export function isLitter(name: string): boolean {
  return (
    OS_FILES.has(name) ||
    name.startsWith('.#') ||
    name.startsWith('._') ||
    (name.startsWith('#') && name.endsWith('#')) ||
    name.endsWith('~') ||
    /^\..+\.sw[a-p]$/.test(name) ||
    name.endsWith('___jb_tmp___') ||
    name.endsWith('___jb_old___')
  );
}

/**
 * Whether a name in posts/, projects/ or services/ is a Markdown file of the
 * site: a hidden file is not (the lock and AppleDouble names end in .md too),
 * nor Hugo's list page `_index.md`.
 */
export function isContentFile(name: string): boolean {
  // Hugo's _index.md is the list page of its folder, which folio makes itself (content/strays.ts says so).
  return name.endsWith('.md') && !name.startsWith('.') && name !== '_index.md';
}

/** A content file's name without its folder and .md: the default slug or id. */
export function baseName(file: string): string {
  return file.replace(/^.*[\\/]/, '').replace(/\.md$/, '');
}
