// Markdown helpers for llms.txt, llms-full.txt and the agent instructions.
import type { Frame } from '../http.js';
import { mdLink, mdText } from '../markdown-text.js';

/** An llms.txt list item: `- [Name](url): note` (llmstxt.org), and `(~1,200 tokens)` when its cost is given (D53). */
export function linkItem(name: string, url: string, note?: string, tokens?: string): string {
  return `- ${mdLink(name, url)}${note ? `: ${mdText(note)}` : ''}${tokens ? ` (${tokens})` : ''}`;
}

type Block = string | null | undefined | false;

const kept = (parts: Block[]) => parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim());

/** Joins blocks with blank lines, skipping empty ones, with one final newline. */
export function blocks(...parts: Block[]): string {
  return `${kept(parts).join('\n\n')}\n`;
}

/**
 * blocks(...before, middle, ...after) cut right after `middle` (a block that
 * is not empty): text put between the two halves continues `middle`.
 */
export function blocksAround(before: Block[], middle: string, after: Block[]): Frame {
  const rest = kept(after);
  return { head: [...kept(before), middle.trim()].join('\n\n'), tail: rest.length ? `\n\n${rest.join('\n\n')}\n` : '\n' };
}
