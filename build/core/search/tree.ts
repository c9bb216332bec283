// The radix trees of the index (D12): how the build writes a field's tree
// (segments only, not the whole word in every node as Orama's own JSON does)
// and how the run time reads it back, as far as queries walk it.
import { decodeIds, encodeIds } from './codec.js';
import type { CompactNode } from './format.js';

/** What folio reads of a tree node: Orama's RadixNode at build time, a LazyNode once loaded. */
export interface TreeNode {
  /** The segment of the word this node adds to its parent's. */
  s: string;
  /** Whether a word ends here. */
  e: boolean;
  c: Map<string, TreeNode>;
  /** The internal ids of the documents holding the word that ends here. */
  d: Set<number>;
}

/**
 * A loaded node that decodes itself as far as it is read: its postings stay
 * delta-coded (./codec.ts) until first read, and its children stay the index
 * file's arrays until first walked, so opening an index builds only the top
 * of each tree and a query builds the path to its words.
 */
export class LazyNode implements TreeNode {
  s: string;
  e: boolean;
  /** The whole word, for Orama's methods and for debugging. */
  w: string;
  private encoded: string | null;
  private set: Set<number> | null = null;
  private list: Int32Array | null = null;
  private children: Map<string, TreeNode> | null = null;
  private rawChildren: readonly CompactNode[] | null;
  /** Each posting's score for this word, aligned with `ids`, and the parameters it was computed with. Filled by ./score.ts. */
  contributions: { key: string; values: Float32Array } | undefined;

  constructor([segment, postings, children]: CompactNode, parent: string) {
    this.s = segment;
    this.e = postings !== '';
    this.w = parent + segment;
    this.encoded = postings;
    this.rawChildren = children;
  }

  get c(): Map<string, TreeNode> {
    if (this.children) return this.children;
    this.children = new Map();
    for (const child of this.rawChildren ?? []) this.children.set(child[0][0]!, new LazyNode(child, this.w));
    this.rawChildren = null;
    return this.children;
  }

  set c(value: Map<string, TreeNode>) {
    this.children = value;
    this.rawChildren = null;
  }

  /** Internal ids, ascending. */
  get ids(): Int32Array {
    if (this.list) return this.list;
    if (this.set) return (this.list = Int32Array.from(this.set).sort());
    this.list = decodeIds(this.encoded ?? '');
    this.encoded = null;
    return this.list;
  }

  get d(): Set<number> {
    return (this.set ??= new Set(this.ids));
  }

  set d(value: Set<number>) {
    this.set = value;
    this.list = null;
    this.encoded = null;
    this.contributions = undefined;
  }
}

/**
 * A field's words and their postings (./codec.ts encodeIds), sorted by word:
 * what the index file's tree holds, however the tree was grown.
 */
export function treeWords(root: TreeNode): [word: string, postings: string][] {
  const words: [string, string][] = [];
  const visit = (node: TreeNode, prefix: string) => {
    const word = prefix + node.s;
    if (node.e && node.d.size > 0) words.push([word, encodeIds([...node.d].sort((a, b) => a - b))]);
    for (const child of node.c.values()) visit(child, word);
  };
  visit(root, '');
  return words.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The words of a tree as the index file stores it (the inverse of treeWords, for an edit to patch). */
export function compactWords(root: CompactNode): Map<string, string> {
  const words = new Map<string, string>();
  const visit = ([segment, postings, children]: CompactNode, prefix: string) => {
    const word = prefix + segment;
    if (postings !== '') words.set(word, postings);
    for (const child of children) visit(child, word);
  };
  visit(root, '');
  return words;
}

/** The postings of one word of a tree as the index file stores it, or "" when no document holds it. */
export function findWord(root: CompactNode, word: string): string {
  let node = root;
  let at = node[0].length;
  while (at < word.length) {
    const next = node[2].find(([segment]) => segment[0] === word[at]);
    if (!next || !word.startsWith(next[0], at)) return '';
    node = next;
    at += next[0].length;
  }
  return at === word.length ? node[1] : '';
}

/**
 * The radix tree of `words` (sorted, as treeWords gives them) as the index
 * file stores it: children in the order of their first letter, so the bytes
 * follow from the words alone and an edited index equals a fresh one (D40).
 */
export function encodeWords(words: readonly (readonly [string, string])[]): CompactNode {
  const below = (lo: number, hi: number, depth: number): CompactNode[] => {
    const nodes: CompactNode[] = [];
    for (let i = lo; i < hi;) {
      const first = words[i]![0];
      let j = i + 1;
      while (j < hi && words[j]![0][depth] === first[depth]) j++;
      // Sorted, so the group's common prefix is that of its first and last words.
      const last = words[j - 1]![0];
      let end = depth + 1;
      while (end < first.length && end < last.length && first[end] === last[end]) end++;
      const own = first.length === end ? words[i]![1] : '';
      nodes.push([first.slice(depth, end), own, below(own === '' ? i : i + 1, j, end)]);
      i = j;
    }
    return nodes;
  };
  const root = words.length > 0 && words[0]![0] === '' ? words[0]![1] : '';
  return ['', root, below(root === '' ? 0 : 1, words.length, 0)];
}

/** A field's tree from the index file: nothing below the root is decoded until a query walks it. */
export function decodeTree(tree: CompactNode): LazyNode {
  return new LazyNode(tree, '');
}

/** The postings of a node, whichever kind it is. */
export function postings(node: TreeNode): ArrayLike<number> {
  return node instanceof LazyNode ? node.ids : [...node.d];
}

/** The exact node of a token, or undefined. */
export function exactNode(tree: TreeNode, token: string): TreeNode | undefined {
  let node = tree;
  let i = 0;
  while (i < token.length) {
    const child = node.c.get(token[i]!);
    if (!child || !token.startsWith(child.s, i)) return undefined;
    node = child;
    i += child.s.length;
  }
  return node.e && postings(node).length > 0 ? node : undefined;
}
