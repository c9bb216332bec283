// Markdown helpers for llms.txt, llms-full.txt and the agent instructions.
import { mdLink, mdText } from '../markdown-text.js';

/** An llms.txt list item: `- [Name](url): note` (llmstxt.org), and `(~1,200 tokens)` when its cost is given (D53). */
export function linkItem(name: string, url: string, note?: string, tokens?: string): string {
  return `- ${mdLink(name, url)}${note ? `: ${mdText(note)}` : ''}${tokens ? ` (${tokens})` : ''}`;
}

/** Joins blocks with blank lines, skipping empty ones, with one final newline. */
export function blocks(...parts: (string | null | undefined | false)[]): string {
  return `${parts
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    .map((p) => p.trim())
    .join('\n\n')}\n`;
}
