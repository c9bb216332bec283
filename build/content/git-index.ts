// What git's index says of the content files (D56): for each file it tracks,
// the blob of its bytes and the stat the file had when git last looked at it.
// A file whose stat is still that one holds that blob, as `git status`
// trusts without reading it; unlike our own stat stamps, the blob names the
// same bytes in every checkout, so a CI job's fresh clone need not read and
// hash every file to find their records. Read once per build; an index this
// does not know how to read, or whose checksum fails, is no index.
import { createHash, hash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readFileSync, statSync, type BigIntStats } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

const SIGNATURE = 0x44495243; // "DIRC"
/** ctime and mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size: ten 32-bit fields, then the blob and the flags. */
const STAT_BYTES = 40;
const HASH_BYTES = 20;
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE = 0x3000;
const SKIP_WORKTREE = 0x4000;
const INTENT_TO_ADD = 0x2000;
/** The file-type bits of an entry's mode, and their value for a regular file (not a symlink, submodule or sparse directory). */
const FILE_TYPE = 0o170000;
const REGULAR_FILE = 0o100000;
const GIT_STAMP = 'git:';
/**
 * Larger than the index of a work tree holding some 60,000 files (a
 * monorepo's): reading and walking it would cost a build more than the
 * content files it could spare reading, so it is not read.
 */
const MAX_INDEX_BYTES = 8 * 2 ** 20;

/** Where each entry's fields are: its offset in the index file's bytes, by path. */
interface Entries {
  bytes: Buffer;
  at: Map<string, number>;
}

export class GitIndex {
  private constructor(
    /** The work tree's root, with a trailing separator. */
    private readonly root: string,
    private readonly entries: Entries,
    /** When git wrote the index: an entry stamped as late as this may be racy (git's racy-git rule). */
    private readonly written: bigint,
  ) {}

  /** The index of the work tree `dir` is in, or null when there is none, or none this can read. */
  static of(dir: string): GitIndex | null {
    const found = workTree(resolve(dir));
    if (!found) return null;
    try {
      // The times and bytes of one file: git writes a new index and renames it over the old one.
      const fd = openSync(join(found.gitDir, 'index'), 'r');
      let bytes: Buffer;
      let written: bigint;
      try {
        const index = fstatSync(fd, { bigint: true });
        if (index.size > MAX_INDEX_BYTES) return null;
        written = index.mtimeNs;
        bytes = readFileSync(fd);
      } finally {
        closeSync(fd);
      }
      const root = found.root.endsWith(sep) ? found.root : found.root + sep;
      const within = resolve(dir).slice(root.length).split(sep).join('/');
      const entries = parseIndex(bytes, within && Buffer.from(`${within}/`, 'utf8').toString('latin1'));
      return entries && new GitIndex(root, entries, written);
    } catch {
      return null;
    }
  }

  /**
   * `git:<blob>:<size>` for the file at the absolute `path` whose stat is
   * `st`, when the index holds it as a regular file at stage 0 that git does
   * not skip, with exactly this stat, recorded before the index was written;
   * else undefined.
   */
  stampOf(path: string, st: BigIntStats): string | undefined {
    if (!path.startsWith(this.root)) return undefined;
    const at = this.entries.at.get(sep === '/' ? path.slice(this.root.length) : path.slice(this.root.length).split(sep).join('/'));
    if (at === undefined) return undefined;
    const { bytes } = this.entries;
    const s = (field: number) => bytes.readUInt32BE(at + 4 * field);
    const mtime = BigInt(s(2)) * 1_000_000_000n + BigInt(s(3));
    // Written in the same tick as the index, the file may have changed again unseen: git reads such a file, and so do we.
    if (mtime >= this.written) return undefined;
    const low = (n: bigint) => Number(n & 0xffffffffn);
    const same =
      s(0) === low(st.ctimeNs / 1_000_000_000n) &&
      s(1) === low(st.ctimeNs % 1_000_000_000n) &&
      s(2) === low(st.mtimeNs / 1_000_000_000n) &&
      s(3) === low(st.mtimeNs % 1_000_000_000n) &&
      s(4) === low(st.dev) &&
      s(5) === low(st.ino) &&
      s(7) === low(st.uid) &&
      s(8) === low(st.gid) &&
      s(9) === low(st.size) &&
      st.size > 0n;
    return same ? `${GIT_STAMP}${bytes.toString('hex', at + STAT_BYTES, at + STAT_BYTES + HASH_BYTES)}:${st.size}` : undefined;
  }
}

/** Whether `bytes` are what `stamp` names: the blob of a git stamp; any bytes for a stat stamp, which names none. */
export function stampHolds(stamp: string, bytes: Uint8Array): boolean {
  if (!stamp.startsWith(GIT_STAMP)) return true;
  const blob = createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
  return stamp.startsWith(`${GIT_STAMP}${blob}:`);
}

/** The work tree holding `dir` and its git directory (a `.git` folder, or a `.git` file naming one: worktrees, submodules). */
function workTree(dir: string): { root: string; gitDir: string } | null {
  for (let at = dir; ; at = dirname(at)) {
    const dotGit = join(at, '.git');
    if (existsSync(dotGit)) {
      try {
        if (statSync(dotGit).isDirectory()) return { root: at, gitDir: dotGit };
        const named = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
        return named ? { root: at, gitDir: resolve(at, named) } : null;
      } catch {
        return null;
      }
    }
    if (dirname(at) === at) return null;
  }
}

/**
 * The entries of an index file (versions 2 to 4) that name one regular file
 * each, by path; null when the file is not an index of SHA-1 blobs, or its
 * checksum fails. Entries at a merge stage, marked assume-unchanged,
 * skip-worktree or intent-to-add, and sparse directories, are left out, and
 * so are those outside the folder `within` (a path from the work tree's root
 * with a trailing slash, as git writes it in latin1; by default all).
 */
export function parseIndex(bytes: Buffer, within = ''): Entries | null {
  if (bytes.length < 12 + HASH_BYTES || bytes.readUInt32BE(0) !== SIGNATURE) return null;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  // A SHA-256 repository's index ends with a longer checksum, and this one fails.
  const end = bytes.length - HASH_BYTES;
  if (hash('sha1', bytes.subarray(0, end), 'hex') !== bytes.toString('hex', end)) return null;
  const count = bytes.readUInt32BE(8);
  const entries = new Map<string, number>();
  let at = 12;
  // Paths as latin1, one character a byte, for version 4's byte counts; UTF-8 once the path is whole.
  let previous = '';
  for (let i = 0; i < count; i++) {
    const start = at;
    const mode = bytes.readUInt32BE(at + 24);
    const flags = bytes.readUInt16BE(at + STAT_BYTES + HASH_BYTES);
    at += STAT_BYTES + HASH_BYTES + 2;
    let extended = 0;
    if (flags & EXTENDED) {
      if (version < 3) return null;
      extended = bytes.readUInt16BE(at);
      at += 2;
    }
    let path: string;
    if (version === 4) {
      // The path is the previous one but its last N bytes, then a NUL-terminated suffix; N is a varint.
      let byte = bytes[at++]!;
      let strip = byte & 0x7f;
      while (byte & 0x80) {
        byte = bytes[at++]!;
        strip = ((strip + 1) << 7) | (byte & 0x7f);
      }
      const nul = bytes.indexOf(0, at);
      if (nul === -1 || nul >= end || strip > previous.length) return null;
      path = previous.slice(0, previous.length - strip) + bytes.toString('latin1', at, nul);
      at = nul + 1;
    } else {
      const nul = bytes.indexOf(0, at);
      if (nul === -1 || nul >= end) return null;
      path = bytes.toString('latin1', at, nul);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      at = start + ((nul - start + 8) & ~7);
    }
    previous = path;
    if (at > end) return null;
    const skipped = flags & (ASSUME_VALID | STAGE) || extended & (SKIP_WORKTREE | INTENT_TO_ADD);
    if (!skipped && (mode & FILE_TYPE) === REGULAR_FILE && path.startsWith(within))
      entries.set(NOT_ASCII.test(path) ? Buffer.from(path, 'latin1').toString('utf8') : path, start);
  }
  return { bytes, at: entries };
}

const NOT_ASCII = /[^\x00-\x7f]/;
