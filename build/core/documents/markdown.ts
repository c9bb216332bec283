// Markdown helpers for llms.txt, llms-full.txt and the agent instructions.

/** Text shown literally inside Markdown (link text, notes): one line, markup escaped. */
export function mdText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`);
}

/** An llms.txt list item: `- [Name](url): note` (llmstxt.org). */
export function linkItem(name: string, url: string, note?: string): string {
  return `- [${mdText(name)}](${url})${note ? `: ${mdText(note)}` : ''}`;
}

/** Joins blocks with blank lines, skipping empty ones, with one final newline. */
export function blocks(...parts: (string | null | undefined | false)[]): string {
  return `${parts
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    .map((p) => p.trim())
    .join('\n\n')}\n`;
}
